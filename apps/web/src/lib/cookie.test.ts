import { afterEach, describe, expect, it, vi } from 'vitest'
import { cookie, getCookie, removeCookie, setCookie } from './cookie'

afterEach(() => vi.restoreAllMocks())

describe('cookie helper (SPEC.md §9)', () => {
  it('sets on path / with an expiry in days, gets and removes', () => {
    const writes: string[] = []
    const desc = Object.getOwnPropertyDescriptor(Document.prototype, 'cookie')!
    vi.spyOn(document, 'cookie', 'set').mockImplementation((v: string) => {
      writes.push(v)
      desc.set!.call(document, v)
    })
    vi.spyOn(Date, 'now').mockReturnValue(Date.UTC(2024, 0, 1))
    setCookie('lang', '中文', 7)
    expect(writes[0]).toBe(
      `lang=${encodeURIComponent('中文')}; path=/; expires=${new Date(Date.UTC(2024, 0, 8)).toUTCString()}`,
    )
    vi.mocked(Date.now).mockRestore()
    setCookie('lang', '中文', 7)
    expect(getCookie('lang')).toBe('中文')
    setCookie('plain', 'x')
    expect(writes.at(-1)).toBe('plain=x; path=/')
    removeCookie('lang')
    expect(writes.at(-1)).toMatch(/^lang=; path=\/; expires=/)
    expect(getCookie('lang')).toBeUndefined()
    expect(cookie.get('plain')).toBe('x')
    cookie.remove('plain')
    expect(cookie.get('plain')).toBeUndefined()
  })
})
