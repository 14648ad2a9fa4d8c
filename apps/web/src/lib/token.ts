import { TOKEN_STORAGE_KEY } from '@amg/contract'

/** The session token lives in local storage under 'Authorization' (SPEC.md §3, §9). */
export function readToken(): string | null {
  try {
    const value = window.localStorage.getItem(TOKEN_STORAGE_KEY)
    return value && value.trim() !== '' ? value : null
  } catch {
    return null
  }
}

export function writeToken(token: string | null) {
  try {
    if (token) window.localStorage.setItem(TOKEN_STORAGE_KEY, token)
    else window.localStorage.removeItem(TOKEN_STORAGE_KEY)
  } catch {
    // storage unavailable (private mode): the session then lasts for this page only
  }
}
