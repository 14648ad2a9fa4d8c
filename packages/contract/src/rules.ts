import { MSG } from './messages'
import { foldName } from './name-fold'
import { normalizeName } from './names'

/** Field rules of SPEC.md §5 that both the server and the console check. Each returns the message or null. */

export const isBlank = (value: unknown): boolean =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '')

/** Mobile: 11 digits starting with 1. */
export const MOBILE_PATTERN = /^1\d{10}$/
export const isValidMobile = (value: string): boolean => MOBILE_PATTERN.test(value)

/**
 * A mobile as stored: NFKC-normalised (full-width digits, as a Chinese input method types them,
 * １３８００１３８０００ → 13800138000) and trimmed. Checked and stored in this form everywhere a
 * mobile is taken (the user calls, the import).
 */
export const normalizeMobile = (value: string): string => value.normalize('NFKC').trim()

export const PASSWORD_MIN = 12
export const PASSWORD_MAX = 30
const CHINESE = /[\u4e00-\u9fff\u3400-\u4dbf]/

/**
 * Password policy: 12–30 characters, at least three of upper case, lower case, digits and
 * special characters (anything not a letter, digit, underscore or Chinese character), no Chinese.
 */
export function isValidPassword(value: string): boolean {
  if (value.length < PASSWORD_MIN || value.length > PASSWORD_MAX) return false
  if (CHINESE.test(value)) return false
  const classes = [/[A-Z]/, /[a-z]/, /\d/, /[^A-Za-z0-9_\u4e00-\u9fff\u3400-\u4dbf]/]
  return classes.filter((re) => re.test(value)).length >= 3
}

/**
 * Department name: required and without '-' (it joins the full path name), looked for in the stored
 * form of the name, where a full-width '－' is '-' (names.ts).
 */
export function checkOrgName(value: unknown): string | null {
  if (isBlank(value)) return MSG.orgNameRequired
  if (normalizeName(String(value)).includes('-')) return MSG.orgNameNoHyphen
  return null
}

/**
 * Names beginning `svc-` belong to machine clients' service accounts (DESIGN.md §11): no one names a
 * user so, whatever the case, width or dash (`SVC-x`, `ｓｖｃ-x`, `svc‐x`). Compared on the stored form
 * of the name (NFKC), lower-cased, with the Cyrillic and Greek letters that look like s, v and c read as
 * them (a name wholly in one script passes the mixed-script rule of names.ts).
 */
export function isReservedUserName(value: string): boolean {
  // case folded as names compare for uniqueness (name-fold.ts), then the look-alikes
  const name = foldName(normalizeName(value))
    .replace(/[ѕ]/gu, 's')
    .replace(/[ѵνⅴ]/gu, 'v')
    .replace(/[сϲ]/gu, 'c')
  return /^svc\p{Pd}/u.test(name)
}

export function checkMobile(value: unknown): string | null {
  if (isBlank(value)) return null
  return isValidMobile(normalizeMobile(String(value))) ? null : MSG.mobileInvalid
}

export function checkPassword(value: unknown): string | null {
  if (isBlank(value)) return null
  return isValidPassword(String(value)) ? null : MSG.passwordPolicy
}

/** Ids are 32-bit integers in the database: larger ones are refused as malformed, never sent to SQL. */
export const MAX_ID = 2147483647

/** Parse a comma-joined id list ("1,2, 3") into unique positive integers; null when malformed. */
export function parseIdList(
  value: string | number | readonly (string | number)[] | null | undefined,
): number[] | null {
  if (value === undefined || value === null || value === '') return []
  const parts = Array.isArray(value) ? value : String(value).split(',')
  const ids: number[] = []
  for (const part of parts) {
    const text = String(part).trim()
    if (text === '') continue
    if (!/^\d+$/.test(text)) return null
    const id = Number(text)
    if (!Number.isSafeInteger(id) || id <= 0 || id > MAX_ID) return null
    if (!ids.includes(id)) ids.push(id)
  }
  return ids
}

/** SPEC.md §5: front-end access strings are trimmed and joined with commas. */
export function joinFrontEndAccess(items: readonly string[]): string {
  return items
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .join(',')
}

export function splitFrontEndAccess(value: string | null | undefined): string[] {
  if (!value) return []
  return value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
}

/** The built-in service: this server's own API (DESIGN.md §10a). */
export const AMS_SERVICE_KEY = 'ams'

/** A service key travels in forward-auth URLs: lower-case letters, digits and '-', at most 32. */
export const SERVICE_KEY_PATTERN = /^[a-z0-9-]{1,32}$/

export function checkServiceKey(value: unknown): string | null {
  if (isBlank(value)) return MSG.serviceKeyRequired
  return typeof value === 'string' && SERVICE_KEY_PATTERN.test(value) ? null : MSG.serviceKeyInvalid
}

/** The refusal of a call naming a service that does not exist. */
export const unknownService = (key: string) => `服务不存在：${key}`
