import { describe, expect, it } from 'vitest'
import { logTimeText } from '../src/log-time'

describe('logTimeText: a log time as written in the server zone, with its offset', () => {
  it('keeps the wall time and the offset the server wrote, whatever the reader’s zone', () => {
    expect(logTimeText('2026-11-26T14:03:05.123+08:00')).toBe('2026-11-26 14:03:05 +08:00')
    expect(logTimeText('2026-07-01T09:00:00-04:00')).toBe('2026-07-01 09:00:00 -04:00')
    expect(logTimeText('2026-11-26T06:03:05.000Z')).toBe('2026-11-26 06:03:05 +00:00')
  })
  it('shows anything else as it is, and nothing for no time', () => {
    expect(logTimeText('yesterday')).toBe('yesterday')
    expect(logTimeText(null)).toBe('')
  })
})
