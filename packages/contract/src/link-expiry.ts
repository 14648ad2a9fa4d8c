import { Type } from '@sinclair/typebox'

/**
 * Expiring links (DESIGN.md §20): a user's link to a role, a group or a position may hold until a
 * time. One schema for every link call that takes it, one parser, one set of messages, so the console
 * and the server say the same thing.
 */

export const LINK_EXPIRY_MSG = {
  invalid: '到期时间格式不正确，应为 ISO 8601 时间（如 2030-01-01T08:00:00+08:00）',
  past: '到期时间必须晚于当前时间',
  notApplicable: '只有用户与角色、用户组、岗位的关联可以设置到期时间',
  /** the operation-log row of a link the sweeper removed */
  sweptAction: '到期移除',
  /** what a link list shows for a link without expiry */
  permanent: '永久',
} as const

/**
 * `expiresAt` in a link call: an ISO time, or null / absent for a permanent link. A string, not a
 * `date-time` format, so a malformed value gets the product's own Chinese message from the server.
 */
export const ExpiresAtField = Type.Optional(
  Type.Union([
    Type.String({ maxLength: 64, description: '到期时间（ISO 8601）；不填或 null 为永久' }),
    Type.Null(),
  ]),
)

/** Until when a listed link holds (ISO time), null for a permanent link. */
export const LinkExpiresAt = Type.Optional(
  Type.Union([Type.String({ description: '关联的到期时间（ISO 8601）；null 为永久' }), Type.Null()]),
)

/** An ISO time with a date, a time and a zone ('Z' or ±hh:mm): what a link call accepts. */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})$/

/**
 * The expiry a link call names: a Date, null for permanent (absent, null or ''), or `'invalid'` when
 * the text is not a time. Whether it lies in the future is the server's to judge against its clock.
 */
export function parseExpiresAt(value: string | null | undefined): Date | null | 'invalid' {
  if (value === undefined || value === null || value === '') return null
  if (!ISO_TIME.test(value)) return 'invalid'
  const date = new Date(value)
  return Number.isNaN(date.getTime()) ? 'invalid' : date
}

/**
 * An import cell names a time-bound link as its name with `（至 2026-12-31 18:00）` after it (DESIGN.md
 * §15, §20): the suffix's time cannot be read.
 */
export const importExpiryInvalid = (what: string, cell: string) =>
  `${what}“${cell}”的到期时间格式不正确，应为“名称（至 2026-12-31 18:00）”`

/** An import cell's expiry is not in the future: the link call's own message, naming the cell's link. */
export const importExpiryPast = (what: string, name: string) => `${what}“${name}”的${LINK_EXPIRY_MSG.past}`
