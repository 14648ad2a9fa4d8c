/**
 * A browser's part of a sign-on, by hand: follows redirects keeping cookies per path, as a browser
 * would, so the provider's interaction cookies reach the login and consent calls and nothing else.
 */
interface StoredCookie {
  name: string
  value: string
  path: string
}

export class CookieBrowser {
  private cookies: StoredCookie[] = []

  constructor(readonly base: string) {}

  private header(url: URL): string {
    return this.cookies
      .filter(
        (c) =>
          url.pathname === c.path ||
          url.pathname.startsWith(c.path.endsWith('/') ? c.path : `${c.path}/`) ||
          c.path === '/',
      )
      .map((c) => `${c.name}=${c.value}`)
      .join('; ')
  }

  private keep(res: Response, url: URL) {
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';').map((p) => p.trim())
      const eq = pair.indexOf('=')
      const name = pair.slice(0, eq)
      const value = pair.slice(eq + 1)
      const pathAttr = attrs.find((a) => a.toLowerCase().startsWith('path='))
      const path = pathAttr ? pathAttr.slice(5) : url.pathname.replace(/\/[^/]*$/, '') || '/'
      const expired =
        attrs.some((a) => /^expires=thu, 01 jan 1970/i.test(a)) || attrs.some((a) => /^max-age=0$/i.test(a))
      this.cookies = this.cookies.filter((c) => !(c.name === name && c.path === path))
      if (!expired && value !== '') this.cookies.push({ name, value, path })
    }
  }

  /** One request without following redirects. */
  async request(
    method: string,
    target: string,
    init: { body?: unknown; headers?: Record<string, string> } = {},
  ) {
    const url = new URL(target, this.base)
    const headers: Record<string, string> = { ...init.headers }
    const cookie = this.header(url)
    if (cookie) headers.cookie = cookie
    if (init.body !== undefined) headers['content-type'] = 'application/json'
    const res = await fetch(url, {
      method,
      headers,
      redirect: 'manual',
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    })
    this.keep(res, url)
    return res
  }

  /** GETs and follows redirects until an answer that is not one, or one leaving for `stopAt`. */
  async follow(target: string, stopAt: string): Promise<string> {
    let next = new URL(target, this.base).href
    for (let i = 0; i < 20; i++) {
      if (next.startsWith(stopAt)) return next
      const res = await this.request('GET', next)
      const location = res.headers.get('location')
      if (res.status < 300 || res.status >= 400 || !location) return next
      next = new URL(location, next).href
    }
    throw new Error('too many redirects')
  }
}
