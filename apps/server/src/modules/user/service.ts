import { and, asc, count, eq, ilike, inArray, ne, notExists, or, sql, type SQL } from 'drizzle-orm'
import {
  checkMobile,
  checkPassword,
  isBlank,
  MSG,
  parseIdList,
  type IdListInput,
  type PageResult,
  type UserDetail,
  type UserGroupListQuery,
  type UserGroupRow,
  type UserInsertBody,
  type UserListBody,
  type UserNameListBody,
  type UserPositionListQuery,
  type UserPositionRow,
  type UserRoleListQuery,
  type UserRoleRow,
  type UserListRow,
  type UserSimple,
  type UserUpdateBody,
} from '@amg/contract'
import type { Db, DbOrTx, Transactable } from '../../db/connection'
import { guardedChange, LAST_SUPER_ADMIN_MSG } from '../../auth/super-admin-guard'
import {
  organizations,
  positions,
  positionUsers,
  roles,
  stations,
  userGroups,
  userGroupUsers,
  userRoles,
  users,
} from '../../db/schema'
import { hashPassword } from '../../auth/password'
import { recordPasswordSet, requirePolicy } from '../../auth/password-rules'
import { readSecuritySettings } from '../../auth/security-settings'
import { endUserSessions } from '../../auth/sessions'
import type { PowerGuard } from '../../auth/power'
import type { Links } from '../links/service'
import {
  orgInScope,
  requirePositionsInScope,
  requireReadableUser,
  requireWritableUsers,
  visibleOrg,
  visibleUser,
  scopeKey,
  type Caller,
} from '../../auth/user-scope'
import { linkedPage } from '../links/linked-lists'
import { linkGrants, writeWithinReach } from '../links/reach-grants'
import { requireExisting } from '../links/existing'
import { orgCompleteNames } from '../position/org-paths'
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors'
import { rethrowUnique } from '../../lib/unique-violation'
import { containsPattern } from '../../lib/like'
import { inIdOrder, newestFirstPage, type ListMemory } from '../../lib/newest-first-page'
import type { VersionedCache } from '../../cache/versioned-cache'

export const USER_MSG = {
  notFound: '用户不存在',
  nickNameTaken: '用户昵称已存在',
  freezeSelf: '不能冻结自己！',
  lastSuperAdmin: LAST_SUPER_ADMIN_MSG,
} as const

/** Times leave as ISO 8601 text (DESIGN.md §4). */
const isoTimes = <T extends { createTime: Date; updateTime: Date }>(row: T) => ({
  ...row,
  createTime: row.createTime.toISOString(),
  updateTime: row.updateTime.toISOString(),
})

/** What a service needs to know about the caller. */
export interface Operator {
  id: number
  token: string | null
}

const userRowColumns = {
  id: users.id,
  nickName: users.nickName,
  realName: users.realName,
  mobile: users.mobile,
  status: users.status,
  createTime: users.createTime,
  updateTime: users.updateTime,
}

const page = (q: { pageNum?: number; pageSize?: number }) => {
  const pageSize = q.pageSize ?? 10
  const pageNum = q.pageNum ?? 1
  return { limit: pageSize, offset: (pageNum - 1) * pageSize }
}

/** Empty strings and null clear an optional text; undefined leaves it as it is. */
const optionalText = (value: string | null | undefined): string | null | undefined =>
  value === undefined ? undefined : isBlank(value) ? null : value!.trim()

async function requireUser(db: DbOrTx, userId: number) {
  const [user] = await db
    .select({ id: users.id, status: users.status })
    .from(users)
    .where(eq(users.id, userId))
  if (!user) throw notFound(USER_MSG.notFound)
  return user
}

/** The index catches what ensureNickNameFree cannot: two requests passing it at the same moment. */
const onNickNameTaken = rethrowUnique({ users_nick_name_key: USER_MSG.nickNameTaken })

async function ensureNickNameFree(db: DbOrTx, nickName: string, exceptId?: number) {
  const where = exceptId
    ? and(eq(users.nickName, nickName), ne(users.id, exceptId))
    : eq(users.nickName, nickName)
  const [taken] = await db.select({ id: users.id }).from(users).where(where).limit(1)
  if (taken) throw conflict(USER_MSG.nickNameTaken)
}

function checkContact(body: { mobile?: string | null; password?: string | null }) {
  const problem = checkMobile(body.mobile) ?? checkPassword(body.password)
  if (problem) throw badRequest(problem)
}

// ---------------------------------------------------------------------------------------------
// Users
// ---------------------------------------------------------------------------------------------

/**
 * POST /user/list: newest first. The page's ids come from the (create_time, id) index, then only those
 * rows are read, with their positions and roles in one more query each (per page, not per row); the
 * total is exact (lib/newest-first-page.ts). Text filters match anywhere, case-insensitively; from 3
 * characters on a trigram index serves the nickName.
 *
 * What is read is kept in the list cache only for filters on columns whose changes the cache hears of
 * (nickName, status: the users trigger; the positions held and their departments, for a scoped
 * caller's list, kept per scope). A keyword also looks at realName and mobile, and a department at the
 * department tree, which those triggers do not watch: those lists are read afresh each time, so they
 * are never stale.
 */
export async function listUsers(
  db: Db,
  listCache: VersionedCache,
  q: UserListBody,
  caller: Caller,
): Promise<PageResult<UserListRow>> {
  const { nickName, keyword, orgId, status, inScope, filters, walk } = userListFilters(q, caller)
  const { limit, offset } = page(q)
  const watched = keyword === null && orgId === null
  const { ids, ...total } = await newestFirstPage(
    db,
    watched ? listCache : READ_AFRESH,
    {
      source: { table: users, id: users.id, createTime: users.createTime },
      where: filters.length ? and(...filters) : undefined,
      walk,
      key: `users:${JSON.stringify([nickName, status])}${inScope ? `:${scopeKey(caller)}` : ''}`,
    },
    { offset, limit },
  )
  if (!ids.length) return { list: [], ...total }
  const [rows, held] = await Promise.all([
    db
      .select({
        ...userRowColumns,
        // DESIGN.md §14: the list shows who has two-step sign-in
        mfaEnabled: sql<boolean>`exists (select 1 from user_mfa m where m.user_id = ${users.id} and m.enabled)`,
      })
      .from(users)
      .where(inArray(users.id, ids)),
    heldByUsers(db, ids, caller),
  ])
  return {
    list: inIdOrder(rows, ids).map((row) => ({
      ...isoTimes(row),
      positions: held.positions.get(row.id) ?? [],
      ...(held.hidden.has(row.id) ? { hiddenPositions: held.hidden.get(row.id) } : {}),
      roles: held.roles.get(row.id) ?? [],
    })),
    ...total,
  }
}

/**
 * The user list's filters and the caller's scope (DESIGN.md §13), shared by the list and the export
 * (DESIGN.md §15), so an export holds exactly the users the list shows.
 */
export function userListFilters(
  q: Pick<UserListBody, 'nickName' | 'keyword' | 'orgId' | 'status'>,
  caller: Caller,
) {
  const nickName = isBlank(q.nickName) ? null : q.nickName!.trim()
  const keyword = isBlank(q.keyword) ? null : q.keyword!.trim()
  const orgId = q.orgId ?? null
  const status = q.status ?? null
  const filters: SQL[] = []
  if (nickName) filters.push(ilike(users.nickName, containsPattern(nickName)))
  if (keyword) {
    const pattern = containsPattern(keyword)
    filters.push(
      or(ilike(users.nickName, pattern), ilike(users.realName, pattern), ilike(users.mobile, pattern))!,
    )
  }
  if (orgId != null) filters.push(holdsPositionUnder(orgId))
  if (status != null) filters.push(eq(users.status, status))
  // data scope (DESIGN.md §13): who is visible depends on the positions held and their departments,
  // which the list cache hears of too (migration 0019), and on the caller's scope, which names the list;
  // `walk` is the same condition checked row by row, for pages read along the index
  const inScope = visibleUser(caller, users.id)
  const walk = inScope
    ? and(...filters, visibleUser(caller, users.id, { rowByRow: true }))
    : filters.length
      ? and(...filters)
      : undefined
  if (inScope) filters.push(inScope)
  return { nickName, keyword, orgId, status, inScope, filters, walk }
}

/** A list memory that keeps nothing: the list is read from the database each time. */
const READ_AFRESH: ListMemory = { token: () => 0, peek: () => undefined, store: () => undefined }

/** The user holds a position in the department `orgId` or any department below it. */
const holdsPositionUnder = (orgId: number): SQL => sql`exists (
    select 1 from ${positionUsers} pu join ${positions} p on p.id = pu.position_id
    where pu.user_id = ${users.id} and p.org_id in (
      with recursive subtree(id) as (
        select id from organizations where id = ${orgId}
        union
        select o.id from organizations o join subtree s on o.parent = s.id
      ) select id from subtree))`

/**
 * The positions ('部门-职位', the department's own name) and the directly linked roles of a page of
 * users: one query each for the whole page.
 */
async function heldByUsers(db: Db, userIds: number[], caller: Caller) {
  const [positionRows, roleRows] = await Promise.all([
    db
      .select({
        userId: positionUsers.userId,
        orgId: positions.orgId,
        orgName: organizations.organizationName,
        stationName: stations.stationName,
      })
      .from(positionUsers)
      .innerJoin(positions, eq(positions.id, positionUsers.positionId))
      .innerJoin(organizations, eq(organizations.id, positions.orgId))
      .innerJoin(stations, eq(stations.id, positions.stationId))
      .where(inArray(positionUsers.userId, userIds))
      .orderBy(asc(organizations.organizationName), asc(stations.stationName)),
    db
      .select({ userId: userRoles.userId, roleName: roles.roleName })
      .from(userRoles)
      .innerJoin(roles, eq(roles.id, userRoles.roleId))
      .where(inArray(userRoles.userId, userIds))
      .orderBy(asc(roles.id)),
  ])
  const group = <R extends { userId: number }>(rows: R[], text: (r: R) => string) => {
    const byUser = new Map<number, string[]>()
    for (const r of rows) byUser.set(r.userId, [...(byUser.get(r.userId) ?? []), text(r)])
    return byUser
  }
  // positions in departments outside the caller's scope are not shown, only counted (DESIGN.md §13)
  const hidden = new Map<number, number>()
  for (const r of positionRows)
    if (!orgInScope(caller, r.orgId)) hidden.set(r.userId, (hidden.get(r.userId) ?? 0) + 1)
  return {
    hidden,
    positions: group(
      positionRows.filter((r) => orgInScope(caller, r.orgId)),
      (r) => `${r.orgName}-${r.stationName}`,
    ),
    roles: group(roleRows, (r) => r.roleName),
  }
}

/**
 * POST /user/namelist: the "link users" pickers' candidates, by nickName, ordered by id. With a group
 * or position id, the users already in that group / holding that position are left out, so the
 * picker never offers what is linked (as /role/namelist does for roles).
 */
export async function listUserCandidates(
  db: Db,
  q: UserNameListBody,
  caller: Caller,
): Promise<PageResult<UserSimple>> {
  const filters: SQL[] = []
  const inScope = visibleUser(caller, users.id)
  if (inScope) filters.push(inScope)
  if (!isBlank(q.nickName)) filters.push(ilike(users.nickName, containsPattern(q.nickName!.trim())))
  if (q.userGroupId)
    filters.push(
      notExists(
        db
          .select({ x: sql`1` })
          .from(userGroupUsers)
          .where(and(eq(userGroupUsers.groupId, q.userGroupId), eq(userGroupUsers.userId, users.id))),
      ),
    )
  if (q.positionId)
    filters.push(
      notExists(
        db
          .select({ x: sql`1` })
          .from(positionUsers)
          .where(and(eq(positionUsers.positionId, q.positionId), eq(positionUsers.userId, users.id))),
      ),
    )
  const where = filters.length ? and(...filters) : undefined
  const { limit, offset } = page(q)
  const [list, [{ total }]] = await Promise.all([
    db
      .select({ id: users.id, nickName: users.nickName, realName: users.realName, status: users.status })
      .from(users)
      .where(where)
      .orderBy(asc(users.id))
      .limit(limit)
      .offset(offset),
    db.select({ total: count() }).from(users).where(where),
  ])
  return { list, total: Number(total) }
}

/** A user outside the caller's scope is answered 403 '该用户不在您的管理范围内' (docs/decisions.md). */
export async function getUser(db: Db, userId: number, caller: Caller): Promise<UserDetail> {
  const [user] = await db
    .select({ ...userRowColumns, passwordIsInitial: users.passwordIsInitial })
    .from(users)
    .where(eq(users.id, userId))
  if (!user) throw notFound(USER_MSG.notFound)
  await requireReadableUser(db, caller, userId)
  return { ...isoTimes(user), passwordIsInitial: user.passwordIsInitial === 1 }
}

/** A new or changed password, hashed before the write's transaction opens (lib/before-transaction.ts). */
export interface PreparedPassword {
  hash: string
  /** the configured initial password was used (no password given) */
  initial: boolean
}

/** The checks of a new user that need no database; answers the name as stored. */
export function checkNewUser(body: UserInsertBody): string {
  const nickName = body.nickName.trim()
  if (nickName === '') throw badRequest(MSG.nickNameBlank)
  checkContact(body)
  return nickName
}

/** The checks of a user update that need no database; answers the name as stored. */
function checkUserUpdate(body: UserUpdateBody): string {
  const nickName = body.nickName.trim()
  if (nickName === '') throw badRequest(MSG.nickNameRequired)
  checkContact(body)
  return nickName
}

/** POST /user/insert before its transaction: the checks that need no database, then the hash. */
export async function prepareNewUser(
  db: DbOrTx,
  initialPassword: string,
  body: UserInsertBody,
): Promise<PreparedPassword> {
  const nickName = checkNewUser(body)
  const given = isBlank(body.password) ? null : body.password!
  // a password given here passes the configured policy (DESIGN.md §14), the user's name included
  if (given) requirePolicy(await readSecuritySettings(db), given, nickName)
  return { hash: await hashPassword(given ?? initialPassword), initial: !given }
}

/** PUT /user/update before its transaction: the checks, then the new password's hash when one is given. */
export async function prepareUserUpdate(
  db: DbOrTx,
  body: UserUpdateBody,
  operatorId: number,
): Promise<string | undefined> {
  // A stolen session must not become a takeover: one's own password changes only with the old one
  // (whatever the password, so this comes before its rules).
  if (body.id === operatorId && !isBlank(body.password)) throw forbidden(MSG.ownPasswordViaChange)
  const nickName = checkUserUpdate(body)
  if (isBlank(body.password)) return undefined
  requirePolicy(await readSecuritySettings(db), body.password!, nickName)
  // No history check here: it would tell the administrator which passwords the user had (an oracle,
  // and before the power check). A reset password must be changed at the next sign-in, and that own
  // change is where the history holds (DESIGN.md §14).
  return hashPassword(body.password!)
}

/**
 * POST /user/insert. `positionIds`: the positions the new user holds, linked in the same transaction;
 * a scoped administrator (DESIGN.md §13) must give at least one, each in a department within scope.
 * Holding a position gives its roles, so the power check names them (DESIGN.md §6a).
 */
export async function insertUser(
  db: Transactable,
  power: PowerGuard,
  password: PreparedPassword,
  caller: Caller,
  body: UserInsertBody,
): Promise<number> {
  const nickName = checkNewUser(body)
  const positionIds = [...new Set(body.positionIds ?? [])]
  if (!caller.scope.all && positionIds.length === 0) throw forbidden(MSG.positionRequiredInScope)
  await ensureNickNameFree(db, nickName)
  return db.transaction(async (tx) => {
    // the caller's access read once, before the write: the power check and the reach check judge it
    const access = await power.callerAccess(tx, caller.id)
    if (positionIds.length) {
      await requireExisting(tx, 'position', positionIds, true)
      await requirePositionsInScope(tx, caller, positionIds)
      await power.require(tx, caller.id, { positionIds }, access)
    }
    const write = async () => {
      const id = await insertUserRow(tx, nickName, password, caller.id, body)
      if (positionIds.length)
        await tx.insert(positionUsers).values(positionIds.map((positionId) => ({ positionId, userId: id })))
      return id
    }
    // the positions' roles reach the new user's departments: within the caller's reach (DESIGN.md §13)
    return writeWithinReach(tx, power, access, write, async (id) =>
      positionIds.length ? linkGrants(tx, 'user', [id], 'position', positionIds) : [],
    )
  })
}

async function insertUserRow(
  db: DbOrTx,
  nickName: string,
  password: PreparedPassword,
  operatorId: number,
  body: UserInsertBody,
): Promise<number> {
  const [row] = await db
    .insert(users)
    .values(newUserValues(nickName, password, operatorId, body))
    .returning({ id: users.id })
    .catch(onNickNameTaken)
  return row.id
}

/** A new user's row as POST /user/insert writes it (an import writes many at once with the same values). */
export function newUserValues(
  nickName: string,
  password: PreparedPassword,
  operatorId: number,
  body: UserInsertBody,
): typeof users.$inferInsert {
  return {
    nickName,
    realName: optionalText(body.realName) ?? null,
    mobile: optionalText(body.mobile) ?? null,
    status: body.status ?? 1,
    passwordHash: password.hash,
    passwordIsInitial: password.initial ? 1 : 0,
    // set by an administrator, given or initial: the user changes it at the next sign-in (§14)
    mustChangePassword: 1,
    createUserId: operatorId,
    updateUserId: operatorId,
  }
}

/**
 * Any change to a user puts that user's whole power at stake (DESIGN.md §6a). `passwordHash`: the new
 * password's, from `prepareUserUpdate`, when the body gives one.
 */
export async function updateUser(
  db: Transactable,
  power: PowerGuard,
  operator: Caller,
  body: UserUpdateBody,
  passwordHash: string | undefined,
): Promise<void> {
  const self = body.id === operator.id
  const nickName = checkUserUpdate(body)
  const existing = await requireUser(db, body.id)
  if (self && body.status === 2) throw conflict(USER_MSG.freezeSelf)
  await ensureNickNameFree(db, nickName, body.id)
  await guardedChange(db, async (tx) => {
    await requireWritableUsers(tx, operator, [body.id])
    await power.require(tx, operator.id, { userIds: [body.id] })
    const [replaced] = passwordHash
      ? await tx.select({ hash: users.passwordHash }).from(users).where(eq(users.id, body.id))
      : []
    await tx
      .update(users)
      .set({
        nickName,
        status: body.status,
        realName: optionalText(body.realName),
        mobile: optionalText(body.mobile),
        // an administrator's reset: the user changes it at the next sign-in (DESIGN.md §14)
        ...(passwordHash
          ? {
              passwordHash,
              passwordIsInitial: 0,
              mustChangePassword: 1,
              passwordChangedAt: new Date(),
              failedLogins: 0,
              lockedUntil: null,
            }
          : {}),
        updateTime: new Date(),
        updateUserId: operator.id,
      })
      .where(eq(users.id, body.id))
    // the replaced password joins the history, so the user's next own change cannot bring it back
    if (replaced) await recordPasswordSet(tx, await readSecuritySettings(tx), body.id, replaced.hash, true)
    if (body.status === 2 && existing.status !== 2) await endUserSessions(tx, body.id)
    else if (passwordHash) await endUserSessions(tx, body.id)
  }).catch(onNickNameTaken)
}

export async function deleteUser(db: Db, power: PowerGuard, operator: Caller, userId: number): Promise<void> {
  if (userId === operator.id) throw conflict(MSG.deleteSelf)
  await requireUser(db, userId)
  await guardedChange(db, async (tx) => {
    await requireWritableUsers(tx, operator, [userId])
    await power.require(tx, operator.id, { userIds: [userId] })
    await tx.delete(users).where(eq(users.id, userId))
  })
}

// ---------------------------------------------------------------------------------------------
// Links (DESIGN.md §7: linking twice and unlinking what is not linked are harmless)
// ---------------------------------------------------------------------------------------------

function idsOf(input: IdListInput | undefined, what: string): number[] {
  const ids = parseIdList(input)
  if (ids === null) throw badRequest(`${what}ID格式不正确，应为以逗号分隔的数字`)
  if (ids.length === 0) throw badRequest(`请选择要关联的${what}`)
  return ids
}

/** One user's links, served by the shared link module (power check and last-super-admin guard included). */
export const linkRoles = (links: Links, caller: Caller, userId: number, roleIds: IdListInput) =>
  links.link({
    owner: 'user',
    ownerId: userId,
    target: 'role',
    targetIds: idsOf(roleIds, '角色'),
    caller,
  })

export const unlinkRole = (links: Links, caller: Caller, userId: number, roleId: number) =>
  links.unlink({
    owner: 'user',
    ownerId: userId,
    target: 'role',
    targetIds: [roleId],
    caller,
    requireTargets: true,
  })

export const linkGroups = (links: Links, caller: Caller, userId: number, groupIds: IdListInput | undefined) =>
  links.link({
    owner: 'user',
    ownerId: userId,
    target: 'group',
    targetIds: idsOf(groupIds, '用户组'),
    caller,
  })

export const unlinkGroup = (links: Links, caller: Caller, userId: number, groupId: number) =>
  links.unlink({
    owner: 'user',
    ownerId: userId,
    target: 'group',
    targetIds: [groupId],
    caller,
    requireTargets: true,
  })

export const linkPositions = (links: Links, caller: Caller, userId: number, positionIds: IdListInput) =>
  links.link({
    owner: 'user',
    ownerId: userId,
    target: 'position',
    targetIds: idsOf(positionIds, '岗位'),
    caller,
  })

export const unlinkPosition = (links: Links, caller: Caller, userId: number, positionId: number) =>
  links.unlink({
    owner: 'user',
    ownerId: userId,
    target: 'position',
    targetIds: [positionId],
    caller,
    requireTargets: true,
  })

// ---------------------------------------------------------------------------------------------
// Tab lists of one user
// ---------------------------------------------------------------------------------------------

export const listUserRoles = async (
  db: Db,
  q: UserRoleListQuery,
  caller: Caller,
): Promise<PageResult<UserRoleRow>> => {
  await requireVisible(db, caller, q.userId)
  return linkedPage(db, {
    owner: 'user',
    ownerId: q.userId,
    target: 'role',
    fields: {
      id: roles.id,
      roleName: roles.roleName,
      type: roles.type,
      status: roles.status,
      description: roles.description,
    },
    nameContains: q.roleName,
    page: q,
  })
}

export const listUserGroups = async (
  db: Db,
  q: UserGroupListQuery,
  caller: Caller,
): Promise<PageResult<UserGroupRow>> => {
  await requireVisible(db, caller, q.userId)
  return linkedPage(db, {
    owner: 'user',
    ownerId: q.userId,
    target: 'group',
    fields: {
      id: userGroups.id,
      groupName: userGroups.groupName,
      status: userGroups.status,
      description: userGroups.description,
    },
    nameContains: q.groupName,
    page: q,
  })
}

/**
 * Positions a user holds, in a department (or below it) and of a job title when given, each with its
 * department's full path name (root first, joined by '-').
 */
export async function listUserPositions(
  db: Db,
  q: UserPositionListQuery,
  caller: Caller,
): Promise<PageResult<UserPositionRow> & { hiddenPositions?: number }> {
  await requireVisible(db, caller, q.userId)
  const where: SQL[] = []
  // positions in departments outside the scope are counted, not listed (DESIGN.md §13)
  const inScope = visibleOrg(caller, positions.orgId)
  if (inScope) where.push(inScope)
  if (q.stationId != null) where.push(eq(positions.stationId, q.stationId))
  if (q.orgId != null)
    where.push(sql`${positions.orgId} in (with recursive subtree(id) as (
      select id from organizations where id = ${q.orgId}
      union
      select o.id from organizations o join subtree s on o.parent = s.id
    ) select id from subtree)`)
  const { list, total } = await linkedPage(db, {
    owner: 'user',
    ownerId: q.userId,
    target: 'position',
    fields: {
      id: positions.id,
      orgId: positions.orgId,
      stationId: positions.stationId,
      stationName: sql<string>`(select ${stations.stationName} from ${stations} where ${stations.id} = ${positions.stationId})`,
      status: positions.status,
      type: positions.type,
    },
    where: and(...where),
    page: q,
  })
  const names = await orgCompleteNames(
    db,
    list.map((p) => p.orgId),
  )
  return {
    list: list.map((p) => ({
      id: p.id,
      orgId: p.orgId,
      stationId: p.stationId,
      organizationCompleteName: names.get(p.orgId) ?? '',
      stationName: p.stationName,
      status: p.status,
      type: p.type,
    })),
    total,
    ...(inScope ? { hiddenPositions: await hiddenPositionsOf(db, q.userId, inScope) } : {}),
  }
}

/** How many of the user's positions lie in departments outside the caller's scope. */
async function hiddenPositionsOf(db: Db, userId: number, inScope: SQL): Promise<number> {
  const [{ n }] = await db
    .select({ n: count() })
    .from(positionUsers)
    .innerJoin(positions, eq(positions.id, positionUsers.positionId))
    .where(and(eq(positionUsers.userId, userId), sql`not ${inScope}`))
  return Number(n)
}

/** A user's tab lists: 404 when the user does not exist, 403 when outside the caller's scope. */
async function requireVisible(db: Db, caller: Caller, userId: number) {
  await requireExisting(db, 'user', [userId])
  await requireReadableUser(db, caller, userId)
}
