import { describe, expect, it } from 'vitest'
import { instantOfWall, logTimeText, zonedIso } from '../src/log-time'

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

describe('zonedIso and instantOfWall: the server zone’s wall time, both ways', () => {
  it('writes an instant in a zone with the offset it had then, summer time included', () => {
    const instant = new Date('2026-11-26T06:03:05.123Z')
    expect(zonedIso(instant, 'Asia/Shanghai')).toBe('2026-11-26T14:03:05.123+08:00')
    expect(zonedIso(instant, 'UTC')).toBe('2026-11-26T06:03:05.123+00:00')
    expect(zonedIso(instant, 'America/New_York')).toBe('2026-11-26T01:03:05.123-05:00')
    expect(zonedIso(new Date('2026-07-01T12:00:00Z'), 'America/New_York')).toBe(
      '2026-07-01T08:00:00.000-04:00',
    )
    expect(zonedIso(new Date('2026-01-01T00:00:00Z'), 'Asia/Kolkata')).toBe('2026-01-01T05:30:00.000+05:30')
    // midnight is 00, not 24
    expect(zonedIso(new Date('2026-11-25T16:00:00Z'), 'Asia/Shanghai')).toBe('2026-11-26T00:00:00.000+08:00')
  })

  it('reads a wall time in a zone back as the instant it names', () => {
    expect(instantOfWall('2026-11-26T00:00:00', 'Asia/Shanghai').toISOString()).toBe(
      '2026-11-25T16:00:00.000Z',
    )
    expect(instantOfWall('2026-07-01T08:00:00', 'America/New_York').toISOString()).toBe(
      '2026-07-01T12:00:00.000Z',
    )
    expect(instantOfWall('2026-12-01T08:00:00', 'America/New_York').toISOString()).toBe(
      '2026-12-01T13:00:00.000Z',
    )
    // the hour summer time skips (02:30 on 8 March 2026 in New York) lands just after the change
    expect(instantOfWall('2026-03-08T02:30:00', 'America/New_York').toISOString()).toBe(
      '2026-03-08T07:30:00.000Z',
    )
  })
})
