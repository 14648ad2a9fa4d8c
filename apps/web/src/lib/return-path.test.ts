import { describe, expect, it } from 'vitest'
import { returnPath, WELCOME_PATH } from './return-path'

describe('the page signing in leads to', () => {
  it('is the in-console page asked for, with its query', () => {
    expect(returnPath({ from: '/rolemanage' })).toBe('/rolemanage')
    expect(returnPath({ from: '/usermanage?nickName=a&pageNum=2' })).toBe('/usermanage?nickName=a&pageNum=2')
  })
  it('is the welcome page for nothing, the sign-in page, or anything that is not a console path', () => {
    for (const state of [
      undefined,
      null,
      {},
      { from: 42 },
      { from: '' },
      { from: '/' },
      { from: '/?x=1' },
      { from: 'https://evil.example/' },
      { from: '//evil.example/x' },
      { from: '/\\evil.example' },
      { from: 'javascript:alert(1)' },
    ])
      expect(returnPath(state), JSON.stringify(state)).toBe(WELCOME_PATH)
  })
})
