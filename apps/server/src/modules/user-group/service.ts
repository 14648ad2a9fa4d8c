import { and, asc, eq, ilike, inArray, ne, notInArray, type SQL } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import type {
  GroupRoleLinkBody,
  GroupRoleListQuery,
  GroupUserLinkBody,
  GroupUserListQuery,
  PageResult,
  UserGroupDetail,
  UserGroupInsertBody,
  UserGroupListBody,
  UserGroupNameListBody,
  UserGroupListRow,
  UserGroupSimple,
  UserGroupUpdateBody,
} from '@amg/contract'
import type { Db, DbOrTx } from '../../db/connection'
import { guardedChange } from '../../auth/super-admin-guard'
import { userGroupRoles, userGroupUsers, userGroups, users } from '../../db/schema'
import { markGrantable, rolesCarried, type PowerGuard } from '../../auth/power'
import type { Links } from '../links/service'
import { requireWritableUsers, visibleUser, type Caller } from '../../auth/user-scope'
import { requireExisting } from '../links/existing'
import { linkedIds, linkedTab } from '../links/linked-lists'
import { enablingGrants, writeWithinReach } from '../links/reach-grants'
import { conflict, notFound } from '../../lib/errors'
import { rethrowUnique } from '../../lib/unique-violation'
import { containsPattern } from '../../lib/like'
import { inIdOrder, newestFirstPage } from '../../lib/newest-first-page'
import type { VersionedCache } from '../../cache/versioned-cache'
import { idList, nonEmptyIdList, paging } from '../links/ids'

/** An empty description is stored as none (the schema coerces null to ''). */
const blankToNull = (text: string | null | undefined) => (text && text.trim() !== '' ? text : null)

const GROUP_NOT_FOUND = '用户组不存在'
const GROUP_NAME_TAKEN = '用户组名称已存在'

const creator = alias(users, 'creator')
const updater = alias(users, 'updater')

const rowColumns = {
  id: userGroups.id,
  groupName: userGroups.groupName,
  status: userGroups.status,
  description: userGroups.description,
  createTime: userGroups.createTime,
  updateTime: userGroups.updateTime,
  creatorId: creator.id,
  creatorName: creator.nickName,
  updaterId: updater.id,
  updaterName: updater.nickName,
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
  createUserVo: r.creatorId !== null ? { id: r.creatorId, nickName: r.creatorName! } : null,
  updateUserVo: r.updaterId !== null ? { id: r.updaterId, nickName: r.updaterName! } : null,
})

/** Groups with their creator and updater joined in (no query per row). */
function selectRows(db: DbOrTx) {
  return db
    .select(rowColumns)
    .from(userGroups)
    .leftJoin(creator, eq(creator.id, userGroups.createUserId))
    .leftJoin(updater, eq(updater.id, userGroups.updateUserId))
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

/** The index catches what assertNameFree cannot: two requests passing it at the same moment. */
const onNameTaken = rethrowUnique({ user_groups_group_name_key: GROUP_NAME_TAKEN })

async function assertNameFree(db: DbOrTx, groupName: string, exceptId?: number) {
  const [taken] = await db
    .select({ id: userGroups.id })
    .from(userGroups)
    .where(and(eq(userGroups.groupName, groupName), exceptId ? ne(userGroups.id, exceptId) : undefined))
  if (taken) throw conflict(GROUP_NAME_TAKEN)
}

/** Enabling or disabling a group gives or takes the power of the roles it carries (DESIGN.md §6a). */
export async function setGroupEnabled(
  db: Db,
  power: PowerGuard,
  id: number,
  enable: boolean,
  operatorId: number,
) {
  const updated = await guardedChange(db, async (tx) => {
    await requireExisting(tx, 'group', [id])
    // the caller's access read once, before the write: the power check and the reach check judge it
    const access = await power.callerAccess(tx, operatorId)
    await power.require(tx, operatorId, { groupIds: [id] }, access)
    const write = () =>
      tx
        .update(userGroups)
        .set({ status: enable ? 1 : 2, updateUserId: operatorId, updateTime: new Date() })
        .where(eq(userGroups.id, id))
        .returning({ id: userGroups.id })
    return enable
      ? writeWithinReach(tx, power, access, write, () => enablingGrants(tx, 'group', id))
      : write()
  })
  if (updated.length === 0) throw notFound(GROUP_NOT_FOUND)
}

/** A new group with its role and user links, all in one transaction; unknown ids create nothing. */
export async function insertGroup(
  db: Db,
  power: PowerGuard,
  body: UserGroupInsertBody,
  caller: Caller,
): Promise<number> {
  const operatorId = caller.id
  const groupName = body.groupName.trim()
  const roleIds = idList(body.roleIds, 'roleIds')
  const userIds = idList(body.userIds, 'userIds')
  return db
    .transaction(async (tx) => {
      await assertNameFree(tx, groupName)
      await requireExisting(tx, 'role', roleIds, true)
      await requireExisting(tx, 'user', userIds, true)
      await requireWritableUsers(tx, caller, userIds)
      // the new members get the new roles: both sides' power is at stake
      // the caller's access read once, before the write: the power check and the reach check judge it
      const access = await power.callerAccess(tx, operatorId)
      await power.require(tx, operatorId, { roleIds, userIds }, access)
      const write = async () => {
        const [group] = await tx
          .insert(userGroups)
          .values({
            groupName,
            status: body.status,
            description: blankToNull(body.description),
            createUserId: operatorId,
            updateUserId: operatorId,
          })
          .returning({ id: userGroups.id })
        if (roleIds.length)
          await tx.insert(userGroupRoles).values(roleIds.map((roleId) => ({ groupId: group.id, roleId })))
        if (userIds.length)
          await tx.insert(userGroupUsers).values(userIds.map((userId) => ({ groupId: group.id, userId })))
        return group.id
      }
      // the new members get the new roles with their scope: within the caller's reach (DESIGN.md §13)
      return writeWithinReach(tx, power, access, write, async () => [{ roleIds, userIds }])
    })
    .catch(onNameTaken)
}

/** `userIds`: the members in the caller's scope only (DESIGN.md §13). */
export async function groupDetail(db: Db, id: number, caller: Caller): Promise<UserGroupDetail> {
  const [row] = await selectRows(db).where(eq(userGroups.id, id))
  if (!row) throw notFound(GROUP_NOT_FOUND)
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

/** A change of status gives or takes the power of the group's roles; the last super admin stays. */
export async function updateGroup(db: Db, power: PowerGuard, body: UserGroupUpdateBody, operatorId: number) {
  const groupName = body.groupName.trim()
  await guardedChange(db, async (tx) => {
    const [current] = await tx
      .select({ status: userGroups.status })
      .from(userGroups)
      .where(eq(userGroups.id, body.id))
    if (!current) throw notFound(GROUP_NOT_FOUND)
    await assertNameFree(tx, groupName, body.id)
    // a change of status: the caller's access read once for the power check and the reach check
    const access = current.status !== body.status ? await power.callerAccess(tx, operatorId) : undefined
    if (access) await power.require(tx, operatorId, { groupIds: [body.id] }, access)
    const set: Partial<typeof userGroups.$inferInsert> = {
      groupName,
      status: body.status,
      updateUserId: operatorId,
      updateTime: new Date(),
    }
    if (body.description !== undefined) set.description = blankToNull(body.description)
    const write = () => tx.update(userGroups).set(set).where(eq(userGroups.id, body.id))
    if (access && body.status === 1)
      await writeWithinReach(tx, power, access, write, () => enablingGrants(tx, 'group', body.id))
    else await write()
  }).catch(onNameTaken)
}

/** The links go with the group (ON DELETE CASCADE): its members lose the power of its roles. */
/** Groups are company-wide, but deleting one removes every member: all of them must lie in scope (DESIGN.md §13). */
export async function deleteGroup(db: Db, power: PowerGuard, id: number, caller: Caller) {
  const deleted = await guardedChange(db, async (tx) => {
    await requireExisting(tx, 'group', [id])
    await requireWritableUsers(tx, caller, await linkedIds(tx, 'group', id, 'user'))
    await power.require(tx, caller.id, { groupIds: [id] })
    return tx.delete(userGroups).where(eq(userGroups.id, id)).returning({ id: userGroups.id })
  })
  if (deleted.length === 0) throw notFound(GROUP_NOT_FOUND)
}

/** The group's members, as its 关联用户 tab lists them. */
/** Members outside the caller's scope are not listed; `outsideCount` says how many there are (DESIGN.md §13). */
export const groupUsers = (db: Db, q: GroupUserListQuery, caller: Caller) =>
  linkedTab(db, {
    owner: 'group',
    ownerId: q.id,
    target: 'user',
    nameContains: q.nickName,
    page: q,
    visible: (id) => visibleUser(caller, id),
  })

/** The group's roles, as its 关联角色 tab lists them. */
export const groupRoles = (db: Db, q: GroupRoleListQuery) =>
  linkedTab(db, { owner: 'group', ownerId: q.userGroupId, target: 'role', nameContains: q.roleName, page: q })

/** The group's links, served by the shared link module (power check and last-super-admin guard included). */
export const linkRoles = (links: Links, body: GroupRoleLinkBody, caller: Caller) =>
  links.link({
    owner: 'group',
    ownerId: body.userGroupsId,
    target: 'role',
    targetIds: nonEmptyIdList(body.roleIds, 'roleIds', '要关联的角色'),
    caller,
  })

export const unlinkRoles = (links: Links, body: GroupRoleLinkBody, caller: Caller) =>
  links.unlink({
    owner: 'group',
    ownerId: body.userGroupsId,
    target: 'role',
    targetIds: nonEmptyIdList(body.roleIds, 'roleIds', '要移除的角色'),
    caller,
  })

export const linkUsers = (links: Links, body: GroupUserLinkBody, caller: Caller) =>
  links.link({
    owner: 'group',
    ownerId: body.userGroupsId,
    target: 'user',
    targetIds: nonEmptyIdList(body.userIds, 'userIds', '要关联的用户'),
    caller,
  })

export const unlinkUsers = (links: Links, body: GroupUserLinkBody, caller: Caller) =>
  links.unlink({
    owner: 'group',
    ownerId: body.userGroupsId,
    target: 'user',
    targetIds: nonEmptyIdList(body.userIds, 'userIds', '要移除的用户'),
    caller,
  })

/**
 * Every group as `{ id, groupName, status }`, optionally filtered by name. With `userId`: only
 * the groups that user is NOT in — the candidates of the user's "link groups" popover
 * (docs/decisions.md). Each is marked with whether the caller may grant the roles it carries.
 */
export async function groupNameList(
  db: Db,
  power: PowerGuard,
  callerId: number,
  body: UserGroupNameListBody,
): Promise<UserGroupSimple[]> {
  const conditions: SQL[] = []
  if (body.groupName?.trim())
    conditions.push(ilike(userGroups.groupName, containsPattern(body.groupName.trim())))
  if (body.userId) {
    conditions.push(
      notInArray(
        userGroups.id,
        db
          .select({ id: userGroupUsers.groupId })
          .from(userGroupUsers)
          .where(eq(userGroupUsers.userId, body.userId)),
      ),
    )
  }
  const candidates = await db
    .select({ id: userGroups.id, groupName: userGroups.groupName, status: userGroups.status })
    .from(userGroups)
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(asc(userGroups.id))
  return markGrantable(db, power, callerId, candidates, (ids) => rolesCarried(db, 'user_group_roles', ids))
}
