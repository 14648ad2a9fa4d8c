/**
 * The times of the operation and sign-in logs, as both the console and the CSV export show them: the
 * wall time in the server's time zone with that zone's offset, `2026-11-26 14:03:05 +08:00`. The
 * server sends each time as ISO 8601 already in its zone (`2026-11-26T14:03:05.123+08:00`), so this
 * only rewrites the text: the reader's own zone never enters (decisions.md "Log times").
 */
const ZONED_ISO = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(?:\.\d+)?(Z|[+-]\d{2}:\d{2})$/

/** `2026-11-26T14:03:05.123+08:00` → `2026-11-26 14:03:05 +08:00`; anything else is shown as it is. */
export function logTimeText(iso: string | null | undefined): string {
  if (!iso) return ''
  const match = ZONED_ISO.exec(iso)
  if (!match) return iso
  const [, date, time, offset] = match
  return `${date} ${time} ${offset === 'Z' ? '+00:00' : offset}`
}
