/** Cookie helper (SPEC.md §9): path '/', expiry in days. */

export function getCookie(name: string): string | undefined {
  const prefix = `${encodeURIComponent(name)}=`
  for (const part of document.cookie ? document.cookie.split('; ') : []) {
    if (part.startsWith(prefix)) return decodeURIComponent(part.slice(prefix.length))
  }
  return undefined
}

/** Sets a cookie on path '/'; with `days` it expires that many days from now (else at session end). */
export function setCookie(name: string, value: string, days?: number): void {
  let cookie = `${encodeURIComponent(name)}=${encodeURIComponent(value)}; path=/`
  if (days !== undefined) {
    const expires = new Date(Date.now() + days * 24 * 60 * 60 * 1000)
    cookie += `; expires=${expires.toUTCString()}`
  }
  document.cookie = cookie
}

export function removeCookie(name: string): void {
  setCookie(name, '', -1)
}

export const cookie = { get: getCookie, set: setCookie, remove: removeCookie }
