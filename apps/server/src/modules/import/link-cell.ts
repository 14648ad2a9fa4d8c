import { importExpiryInvalid, instantOfWall, zonedIso } from '@amg/contract'
import { badRequest } from '../../lib/errors'

/**
 * One name in a user workbook's 岗位, 角色 or 用户组 cell, with the expiry of a time-bound link
 * (DESIGN.md §15, §20): `总公司/研发中心/员工（至 2026-12-31 18:00 +08:00）`. The export writes it and
 * the import reads it back, so both live here. A permanent link is its plain name.
 *
 * Written: the wall time in the server's zone to the minute (seconds dropped), with the zone's offset
 * as every text time of the product's workbooks carries it. Read: full-width or ASCII parentheses,
 * seconds optional, the offset optional (without it the time is the server's zone's wall time).
 * Anything else inside a trailing `（至 …）` fails the row.
 */
export interface LinkCell {
  name: string
  /** null: permanent */
  expiresAt: Date | null
}

/** A trailing `（至 …）` or `(至 …)`: what is before it, and what is inside. */
const SUFFIX = /^(.*?)\s*[（(]\s*至\s*([^（）()]*?)\s*[）)]$/su
const TIME = /^(\d{4})-(\d{2})-(\d{2})\s+(\d{2}):(\d{2})(?::(\d{2}))?(?:\s*([+-])(\d{2}):(\d{2}))?$/

const pad = (n: number, width = 2) => String(n).padStart(width, '0')

/** `name（至 2026-12-31 18:00 +08:00）`, or the bare name for a permanent link. */
export function formatLinkCell(name: string, expiresAt: Date | null, timeZone: string): string {
  if (!expiresAt) return name
  const iso = zonedIso(expiresAt, timeZone)
  return `${name}（至 ${iso.slice(0, 10)} ${iso.slice(11, 16)} ${iso.slice(23)}）`
}

/** The instant a suffix's text names, or null when it is not a real time. */
function instantOf(text: string, timeZone: string): Date | null {
  const m = TIME.exec(text)
  if (!m) return null
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map((v) => Number(v ?? 0))
  const [sign, offsetHours, offsetMinutes] = [m[7], Number(m[8] ?? 0), Number(m[9] ?? 0)]
  // the calendar and the clock checked by a round trip: 2026-02-30 or 24:00 is no time
  const wall = new Date(Date.UTC(year, month - 1, day, hour, minute, second))
  const real =
    wall.getUTCFullYear() === year &&
    wall.getUTCMonth() === month - 1 &&
    wall.getUTCDate() === day &&
    wall.getUTCHours() === hour &&
    wall.getUTCMinutes() === minute &&
    wall.getUTCSeconds() === second &&
    offsetHours <= 14 &&
    offsetMinutes <= 59
  if (!real) return null
  if (!sign)
    return instantOfWall(
      `${pad(year, 4)}-${pad(month)}-${pad(day)}T${pad(hour)}:${pad(minute)}:${pad(second)}`,
      timeZone,
    )
  const offset = (sign === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes) * 60_000
  return new Date(wall.getTime() - offset)
}

/**
 * One name of a cell, its expiry taken off. `isName` says whether a text is a name as it stands: a
 * record whose own name ends in `（至 …）` is named, not misread. 400 (the row fails) when the suffix
 * is there but its time is not a time. Whether it lies ahead is for the row to judge (it may equal
 * the stored expiry).
 */
export function parseLinkCell(
  text: string,
  timeZone: string,
  what: string,
  isName: (text: string) => boolean,
): LinkCell {
  const m = SUFFIX.exec(text)
  if (!m || isName(text)) return { name: text, expiresAt: null }
  const expiresAt = m[1] === '' ? null : instantOf(m[2], timeZone)
  if (!expiresAt) throw badRequest(importExpiryInvalid(what, text))
  return { name: m[1], expiresAt }
}

/** Minutes since the epoch: a cell shows minutes, so expiries are compared to the minute. */
export const minuteOf = (at: Date) => Math.floor(at.getTime() / 60_000)
