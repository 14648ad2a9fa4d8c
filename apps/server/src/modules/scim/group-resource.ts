import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm'
import type { Db, DbOrTx } from '../../db/connection'
import { userGroupUsers, userGroups, users } from '../../db/schema'
import { visibleUser, type Caller } from '../../auth/user-scope'
import { attrOf, parseFilter } from './filter'
import { filterSql, type FilterColumn } from './filter-sql'
import { metaOf, SCIM_PREFIX, type Paging } from './http'
import { ScimError, scimBad, SCIM_MSG } from './errors'
import { scimPage } from './page'

/**
 * A user group as SCIM's Group (RFC 7643 §4.2): displayName ↔ groupName, members ↔ the group's
 * users, externalId kept. Groups are company-wide (DESIGN.md §13); the members a caller sees, and so
 * may replace or remove, are those in the data scope of the group's member list.
 */

export const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group'

const COLUMNS = {
  id: userGroups.id,
  groupName: userGroups.groupName,
  status: userGroups.status,
  source: userGroups.source,
  externalId: userGroups.externalId,
  createTime: userGroups.createTime,
  updateTime: userGroups.updateTime,
}

export interface GroupRow {
  id: number
  groupName: string
  status: number
  source: string
  externalId: string | null
  createTime: Date
  updateTime: Date
}

export interface Member {
  id: number
  nickName: string
}

export function groupResource(row: GroupRow, base: string, members: Member[] | null) {
  return {
    schemas: [GROUP_SCHEMA],
    id: String(row.id),
    ...(row.externalId !== null ? { externalId: row.externalId } : {}),
    displayName: row.groupName,
    ...(members
      ? {
          members: members.map((m) => ({
            value: String(m.id),
            display: m.nickName,
            type: 'User',
            $ref: `${base}${SCIM_PREFIX}/Users/${m.id}`,
          })),
        }
      : {}),
    meta: metaOf('Group', base, row.id, row.createTime, row.updateTime),
  }
}

const FILTERS: Record<string, FilterColumn> = {
  id: { column: userGroups.id, caseExact: true, numeric: true },
  displayname: { column: userGroups.groupName, caseExact: false },
  externalid: { column: userGroups.externalId, caseExact: true },
}

export async function listScimGroups(db: Db, filter: string | undefined, paging: Paging) {
  const where = filter ? filterSql(parseFilter(filter), FILTERS) : undefined
  return scimPage(db, { table: userGroups, fields: COLUMNS, id: userGroups.id, where }, paging)
}

export async function readScimGroup(db: DbOrTx, id: number | null): Promise<GroupRow> {
  if (id === null) throw new ScimError(404, undefined, SCIM_MSG.notFound)
  const [row] = await db.select(COLUMNS).from(userGroups).where(eq(userGroups.id, id))
  if (!row) throw new ScimError(404, undefined, SCIM_MSG.notFound)
  return row
}

/** The members of these groups the caller may see (one query for a page of groups). */
export async function membersOf(
  db: DbOrTx,
  caller: Caller,
  groupIds: number[],
): Promise<Map<number, Member[]>> {
  const byGroup = new Map<number, Member[]>(groupIds.map((id) => [id, []]))
  if (groupIds.length === 0) return byGroup
  const rows = await db
    .select({ groupId: userGroupUsers.groupId, id: users.id, nickName: users.nickName })
    .from(userGroupUsers)
    .innerJoin(users, eq(users.id, userGroupUsers.userId))
    .where(
      and(
        inArray(userGroupUsers.groupId, groupIds),
        isNull(users.scimDeletedAt),
        visibleUser(caller, users.id),
      ),
    )
    .orderBy(asc(users.id))
  for (const row of rows) byGroup.get(row.groupId)?.push({ id: row.id, nickName: row.nickName })
  return byGroup
}

/** What a SCIM Group asks for: its name, its externalId, and its members' ids (undefined: not given). */
export function groupFieldsOf(doc: Record<string, unknown>) {
  const name = attrOf(doc, 'displayName')
  if (typeof name !== 'string' || name.trim() === '')
    throw scimBad('invalidValue', SCIM_MSG.displayNameRequired)
  const externalId = attrOf(doc, 'externalId')
  if (externalId !== undefined && externalId !== null && typeof externalId !== 'string')
    throw scimBad('invalidValue', 'externalId 必须是字符串')
  const members = attrOf(doc, 'members')
  if (members !== undefined && members !== null && !Array.isArray(members))
    throw scimBad('invalidValue', 'members 必须是数组')
  const memberIds = members?.map((m: unknown) => {
    const value = attrOf(m, 'value')
    const text = typeof value === 'number' ? String(value) : value
    if (typeof text !== 'string' || !/^\d{1,9}$/.test(text.trim()))
      throw scimBad('invalidValue', `${SCIM_MSG.badMember}：${String(value)}`)
    return Number(text.trim())
  })
  return {
    groupName: name.trim(),
    externalId:
      typeof externalId === 'string' && externalId.trim() !== '' ? externalId.trim().slice(0, 255) : null,
    memberIds: memberIds ? [...new Set(memberIds)] : undefined,
  }
}

export async function requireGroupExternalIdFree(db: DbOrTx, externalId: string | null, exceptId?: number) {
  if (externalId === null) return
  const [taken] = await db
    .select({ id: userGroups.id })
    .from(userGroups)
    .where(and(eq(userGroups.source, 'scim'), eq(userGroups.externalId, externalId)))
  if (taken && taken.id !== exceptId) throw new ScimError(409, 'uniqueness', 'externalId 已存在')
}

export async function keepGroupExternalId(db: DbOrTx, id: number, externalId: string | null, made: boolean) {
  await db
    .update(userGroups)
    .set({ externalId, ...(made ? { source: 'scim' } : {}) })
    .where(
      and(eq(userGroups.id, id), sql`(${userGroups.externalId} is distinct from ${externalId} or ${made})`),
    )
}
