import { describe, expect, it } from 'vitest'
import { throttledMessage } from '../src/messages'

describe('the sign-in refusal says how long to wait', () => {
  it('in seconds under a minute, in whole minutes (rounded up) from a minute on', () => {
    expect(throttledMessage(1)).toBe('尝试过于频繁，请 1 秒后再试')
    expect(throttledMessage(59)).toBe('尝试过于频繁，请 59 秒后再试')
    expect(throttledMessage(60)).toBe('尝试过于频繁，请 1 分钟后再试')
    expect(throttledMessage(61)).toBe('尝试过于频繁，请 2 分钟后再试')
    expect(throttledMessage(900)).toBe('尝试过于频繁，请 15 分钟后再试')
  })
  it('never says less than a second', () => {
    expect(throttledMessage(0)).toBe('尝试过于频繁，请 1 秒后再试')
    expect(throttledMessage(0.2)).toBe('尝试过于频繁，请 1 秒后再试')
  })
})
