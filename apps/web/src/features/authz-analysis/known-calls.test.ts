import { describe, expect, it } from 'vitest'
import { KNOWN_CALLS, matchingCalls } from './known-calls'

describe('the calls the tester offers', () => {
  it('are this server’s routes with their real methods', () => {
    expect(KNOWN_CALLS).toContainEqual({ method: 'POST', path: '/user/list', summary: expect.any(String) })
    expect(KNOWN_CALLS).toContainEqual({ method: 'GET', path: '/user/detail', summary: expect.any(String) })
    expect(KNOWN_CALLS.some((c) => c.method === 'GET' && c.path === '/user/list')).toBe(false)
  })
  it('are found by a part of the path, the method or the Chinese summary', () => {
    expect(matchingCalls('/user/list').map((c) => `${c.method} ${c.path}`)).toContain('POST /user/list')
    expect(matchingCalls('post /user/l').map((c) => `${c.method} ${c.path}`)).toContain('POST /user/list')
    const summary = KNOWN_CALLS.find((c) => c.path === '/user/list')!.summary
    expect(matchingCalls(summary).map((c) => c.path)).toContain('/user/list')
    expect(matchingCalls('no-such-call')).toEqual([])
  })
})
