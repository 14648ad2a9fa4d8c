/**
 * The logs' times as ISO 8601 in the server's zone (config `timeZone`), with that zone's offset at
 * that instant: `2026-11-26T14:03:05.123+08:00`. The console and the CSV show the wall time and the
 * offset as written (the contract's `logTimeText`), so every reader sees the same time, and a zone
 * with summer time shows each row with the offset it had then.
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
