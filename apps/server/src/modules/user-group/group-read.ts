import { and, asc, eq, ilike, inArray, type SQL } from 'drizzle-orm'
import type { PageResult, UserGroupDetail, UserGroupListBody, UserGroupListRow } from '@amg/contract'
import type { Db, DbOrTx } from '../../db/connection'
import { userGroups, userGroupUsers } from '../../db/schema'
import { creatorJoin, OPERATOR_FIELDS, operatorVos, updaterJoin } from '../../lib/operators'
import { visibleUser, type Caller } from '../../auth/user-scope'
import { linkedIds } from '../links/linked-lists'
import { paging } from '../../lib/paged'
import { notFound } from '../../lib/errors'
import { containsPattern } from '../../lib/like'
import { inIdOrder, newestFirstPage } from '../../lib/newest-first-page'
import type { VersionedCache } from '../../cache/versioned-cache'
import { GROUP_MSG } from './group-write'

/** Reading groups: the list (POST /user_groups/list, its filters shared with the export) and one group's detail. */

const rowColumns = {
  id: userGroups.id,
  groupName: userGroups.groupName,
  status: userGroups.status,
  description: userGroups.description,
  createTime: userGroups.createTime,
  updateTime: userGroups.updateTime,
  ...OPERATOR_FIELDS,
}

type RawRow = {
  id: number
  groupName: string
  status: number
  description: string | null
  createTime: Date
  updateTime: Date
  creatorId: number | null
  creatorName: string | null
  updaterId: number | null
  updaterName: string | null
}

const toRow = (r: RawRow): UserGroupListRow => ({
  id: r.id,
  groupName: r.groupName,
  status: r.status,
  description: r.description,
  createTime: r.createTime as unknown as string,
  updateTime: r.updateTime as unknown as string,
  ...operatorVos(r),
})

/** Groups with their creator and updater joined in (no query per row). */
function selectRows(db: DbOrTx) {
  return db
    .select(rowColumns)
    .from(userGroups)
    .leftJoin(...creatorJoin(userGroups.createUserId))
    .leftJoin(...updaterJoin(userGroups.updateUserId))
}

/** The group list's filters (POST /user_groups/list), the one builder its export shares; `key` names them. */
export function groupListFilters(body: Pick<UserGroupListBody, 'groupName' | 'description' | 'status'>) {
  const groupName = body.groupName?.trim() || null
  const description = body.description?.trim() || null
  const status = body.status || null
  const conditions: SQL[] = []
  if (groupName) conditions.push(ilike(userGroups.groupName, containsPattern(groupName)))
  if (description) conditions.push(ilike(userGroups.description, containsPattern(description)))
  if (status) conditions.push(eq(userGroups.status, status))
  return {
    where: conditions.length ? and(...conditions) : undefined,
    key: JSON.stringify([groupName, description, status]),
  }
}

/**
 * POST /user_groups/list: newest first, read as the user list is (lib/newest-first-page.ts); name and
 * description match anywhere, case-insensitively, from 3 characters on through trigram indexes.
 */
export async function listGroups(
  db: Db,
  listCache: VersionedCache,
  body: UserGroupListBody,
): Promise<PageResult<UserGroupListRow>> {
  const { pageSize, offset } = paging(body)
  const { where, key } = groupListFilters(body)
  const { ids, ...total } = await newestFirstPage(
    db,
    listCache,
    {
      source: { table: userGroups, id: userGroups.id, createTime: userGroups.createTime },
      where,
      key: `user_groups:${key}`,
    },
    { offset, limit: pageSize },
  )
  const rows = ids.length ? await selectRows(db).where(inArray(userGroups.id, ids)) : []
  return { list: inIdOrder(rows, ids).map(toRow), ...total }
}

/** `userIds`: the members in the caller's scope only (DESIGN.md §13). */
export async function groupDetail(db: Db, id: number, caller: Caller): Promise<UserGroupDetail> {
  const [row] = await selectRows(db).where(eq(userGroups.id, id))
  if (!row) throw notFound(GROUP_MSG.notFound)
  const [roleIds, members] = await Promise.all([
    linkedIds(db, 'group', id, 'role'),
    db
      .select({ id: userGroupUsers.userId })
      .from(userGroupUsers)
      .where(and(eq(userGroupUsers.groupId, id), visibleUser(caller, userGroupUsers.userId)))
      .orderBy(asc(userGroupUsers.userId)),
  ])
  const userIds = members.map((m) => m.id)
  return { ...toRow(row), roleIds, userIds }
}
