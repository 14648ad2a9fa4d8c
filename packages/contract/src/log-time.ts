/**
 * The times of the operation and sign-in logs, as both the console and the CSV export show them: the
 * wall time in the server's time zone with that zone's offset, `2026-11-26 14:03:05 +08:00`. The
 * server sends each time as ISO 8601 already in its zone (`2026-11-26T14:03:05.123+08:00`), so this
 * only rewrites the text: the reader's own zone never enters (decisions.md "Log times").
 */

const formats = new Map<string, Intl.DateTimeFormat>()

function formatOf(timeZone: string): Intl.DateTimeFormat {
  let format = formats.get(timeZone)
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
    formats.set(timeZone, format)
  }
  return format
}

const pad = (n: number, width = 2) => String(Math.abs(n)).padStart(width, '0')

/**
 * An instant as ISO 8601 in a zone, with that zone's offset at that instant (summer time included):
 * `2026-11-26T14:03:05.123+08:00`. The server writes the logs' times with it; the console's time-range
 * filter reads and picks times with it, so both speak the server's zone.
 */
export function zonedIso(date: Date, timeZone: string): string {
  const parts: Record<string, number> = {}
  for (const part of formatOf(timeZone).formatToParts(date))
    if (part.type !== 'literal') parts[part.type] = Number(part.value)
  const ms = date.getUTCMilliseconds()
  const wall = Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second, ms)
  const offsetMinutes = Math.round((wall - date.getTime()) / 60_000)
  const sign = offsetMinutes < 0 ? '-' : '+'
  const offset = `${sign}${pad(Math.trunc(offsetMinutes / 60))}:${pad(offsetMinutes % 60)}`
  return (
    `${pad(parts.year, 4)}-${pad(parts.month)}-${pad(parts.day)}` +
    `T${pad(parts.hour)}:${pad(parts.minute)}:${pad(parts.second)}.${pad(ms, 3)}${offset}`
  )
}

/**
 * The instant a wall time (`2026-11-26T14:03:05`, no offset) names in a zone. A wall time that a
 * change to summer time skips lands as far past the change as it was meant to be past its start.
 */
export function instantOfWall(wall: string, timeZone: string): Date {
  const asUtc = Date.parse(`${wall.slice(0, 19)}Z`)
  const offsetAt = (t: number) => Date.parse(`${zonedIso(new Date(t), timeZone).slice(0, 23)}Z`) - t
  const first = new Date(asUtc - offsetAt(asUtc))
  const second = new Date(asUtc - offsetAt(first.getTime()))
  // the second guess is exact unless the wall time does not exist; then the first lands past the gap
  return zonedIso(second, timeZone).slice(0, 19) === wall.slice(0, 19) ? second : first
}

const ZONED_ISO = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(?:\.\d+)?(Z|[+-]\d{2}:\d{2})$/

/** `2026-11-26T14:03:05.123+08:00` → `2026-11-26 14:03:05 +08:00`; anything else is shown as it is. */
export function logTimeText(iso: string | null | undefined): string {
  if (!iso) return ''
  const match = ZONED_ISO.exec(iso)
  if (!match) return iso
  const [, date, time, offset] = match
  return `${date} ${time} ${offset === 'Z' ? '+00:00' : offset}`
}
