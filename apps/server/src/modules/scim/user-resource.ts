import { and, eq, isNull, sql, type SQL } from 'drizzle-orm'
import type { Db, DbOrTx } from '../../db/connection'
import { users } from '../../db/schema'
import { visibleUser, type Caller } from '../../auth/user-scope'
import { attrOf, parseFilter } from './filter'
import { filterSql, type FilterColumn } from './filter-sql'
import { metaOf, type Paging } from './http'
import { ScimError, scimBad, SCIM_MSG } from './errors'
import { scimPage } from './page'

/**
 * A user as SCIM's User (RFC 7643 §4.1), DESIGN.md §22's mapping: userName ↔ nickName,
 * displayName and name.formatted ↔ realName, phoneNumbers (work) ↔ mobile, active ↔ status (1
 * 正常, 2 冻结), externalId kept. What the product does not keep (emails, titles, the enterprise
 * extension …) is accepted and not stored, so Okta's and Entra's full bodies pass.
 */

export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User'
export const ENTERPRISE_SCHEMA = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User'
export const USER_SCHEMAS = [USER_SCHEMA, ENTERPRISE_SCHEMA] as const

const COLUMNS = {
  id: users.id,
  nickName: users.nickName,
  realName: users.realName,
  mobile: users.mobile,
  status: users.status,
  source: users.source,
  externalId: users.externalId,
  createTime: users.createTime,
  updateTime: users.updateTime,
}

export interface UserRow {
  id: number
  nickName: string
  realName: string | null
  mobile: string | null
  status: number
  source: string
  externalId: string | null
  createTime: Date
  updateTime: Date
}

export function userResource(row: UserRow, base: string) {
  return {
    schemas: [USER_SCHEMA],
    id: String(row.id),
    ...(row.externalId !== null ? { externalId: row.externalId } : {}),
    userName: row.nickName,
    ...(row.realName ? { name: { formatted: row.realName }, displayName: row.realName } : {}),
    ...(row.mobile ? { phoneNumbers: [{ value: row.mobile, type: 'work', primary: true }] } : {}),
    active: row.status === 1,
    meta: metaOf('User', base, row.id, row.createTime, row.updateTime),
  }
}

const FILTERS: Record<string, FilterColumn> = {
  id: { column: users.id, caseExact: true, numeric: true },
  username: { column: users.nickName, caseExact: false },
  externalid: { column: users.externalId, caseExact: true },
  displayname: { column: users.realName, caseExact: false },
}

/**
 * The users SCIM shows: those the caller may read (DESIGN.md §13), never service accounts (machine
 * clients' own), nor those a SCIM client deleted (RFC 7644 §3.6: 404 from then on).
 */
const shown = (caller: Caller): SQL | undefined =>
  and(isNull(users.scimDeletedAt), eq(users.serviceAccount, false), visibleUser(caller, users.id))

export async function listScimUsers(db: Db, caller: Caller, filter: string | undefined, paging: Paging) {
  const where = and(shown(caller), filter ? filterSql(parseFilter(filter), FILTERS) : undefined)
  return scimPage(db, { table: users, fields: COLUMNS, id: users.id, where }, paging)
}

/** One user SCIM shows to this caller, or 404. */
export async function readScimUser(db: DbOrTx, caller: Caller, id: number | null): Promise<UserRow> {
  if (id === null) throw new ScimError(404, undefined, SCIM_MSG.notFound)
  const [row] = await db
    .select(COLUMNS)
    .from(users)
    .where(and(eq(users.id, id), shown(caller)))
  if (!row) throw new ScimError(404, undefined, SCIM_MSG.notFound)
  return row
}

/** `true`, `"True"`, `"false"`: Entra sends active as a string. */
export function booleanOf(value: unknown): boolean {
  if (typeof value === 'boolean') return value
  if (typeof value === 'string' && /^(true|false)$/i.test(value.trim()))
    return value.trim().toLowerCase() === 'true'
  throw scimBad('invalidValue', SCIM_MSG.badBoolean)
}

const textOf = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined

/** 张 + 三 without a space for Chinese names, Ada + Lovelace with one otherwise. */
function composed(name: unknown): string | undefined {
  const given = textOf(attrOf(name, 'givenName'))
  const family = textOf(attrOf(name, 'familyName'))
  if (!given && !family) return undefined
  const cjk = /[\u3400-\u9fff]/.test(`${given ?? ''}${family ?? ''}`)
  return cjk ? `${family ?? ''}${given ?? ''}` : [given, family].filter(Boolean).join(' ')
}

/** The work number (else a mobile, the primary, the first) as the product stores mobiles: +86 dropped. */
function mobileOf(phones: unknown): string | null {
  if (!Array.isArray(phones) || phones.length === 0) return null
  const typed = (type: string) => phones.find((p) => String(attrOf(p, 'type') ?? '').toLowerCase() === type)
  const phone =
    typed('work') ?? typed('mobile') ?? phones.find((p) => attrOf(p, 'primary') === true) ?? phones[0]
  const value = textOf(attrOf(phone, 'value'))
  return value ? value.replace(/[\s()-]/g, '').replace(/^(\+86|0086)/, '') : null
}

/** What the product's user calls take from a SCIM User (`current`: the stored user, for PUT and PATCH). */
export interface UserFields {
  nickName: string
  realName: string | null
  mobile: string | null
  status: 1 | 2
  externalId: string | null
  password?: string
}

export function userFieldsOf(doc: Record<string, unknown>, current?: UserRow): UserFields {
  const nickName = textOf(attrOf(doc, 'userName'))
  if (!nickName) throw scimBad('invalidValue', SCIM_MSG.userNameRequired)
  const name = attrOf(doc, 'name')
  const given = [textOf(attrOf(doc, 'displayName')), textOf(attrOf(name, 'formatted'))].filter(
    (v): v is string => v !== undefined,
  )
  const parts = composed(name)
  const old = current?.realName ?? null
  const realName =
    given.find((v) => v !== old) ??
    (parts !== undefined && parts !== old ? parts : undefined) ??
    given[0] ??
    parts ??
    null
  const active = attrOf(doc, 'active')
  const externalId = attrOf(doc, 'externalId')
  if (externalId !== undefined && externalId !== null && typeof externalId !== 'string')
    throw scimBad('invalidValue', 'externalId 必须是字符串')
  const password = attrOf(doc, 'password')
  if (password !== undefined && typeof password !== 'string')
    throw scimBad('invalidValue', 'password 必须是字符串')
  return {
    nickName,
    realName,
    mobile: mobileOf(attrOf(doc, 'phoneNumbers')),
    status:
      active === undefined || active === null
        ? (current?.status ?? 1) === 1
          ? 1
          : 2
        : booleanOf(active)
          ? 1
          : 2,
    externalId:
      typeof externalId === 'string' && externalId.trim() !== '' ? externalId.trim().slice(0, 255) : null,
    ...(typeof password === 'string' && password !== '' ? { password } : {}),
  }
}

/** Marks the record as SCIM's and keeps its id there (migration 0030); LDAP's records stay LDAP's. */
export async function keepExternalId(db: DbOrTx, id: number, externalId: string | null, made: boolean) {
  await db
    .update(users)
    .set({ externalId, ...(made ? { source: 'scim' } : {}) })
    .where(and(eq(users.id, id), sql`(${users.externalId} is distinct from ${externalId} or ${made})`))
}

/** An externalId another user of the same source holds already: 409 uniqueness, nothing changed. */
export async function requireExternalIdFree(
  db: DbOrTx,
  externalId: string | null,
  source: string,
  exceptId?: number,
) {
  if (externalId === null) return
  const [taken] = await db
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        eq(users.source, source),
        eq(users.externalId, externalId),
        exceptId ? sql`${users.id} <> ${exceptId}` : undefined,
      ),
    )
  if (taken) throw new ScimError(409, 'uniqueness', 'externalId 已存在')
}
