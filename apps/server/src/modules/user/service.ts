import { and, asc, count, eq, ilike, inArray, ne, notExists, sql, type SQL } from 'drizzle-orm'
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
  type UserRow,
  type UserSimple,
  type UserUpdateBody,
} from '@amg/contract'
import { queryRows, type Db, type DbOrTx } from '../../db/connection'
import { guardedChange, LAST_SUPER_ADMIN_MSG } from '../../auth/super-admin-guard'
import { positionUsers, roles, userGroups, userGroupUsers, userRoles, users } from '../../db/schema'
import { hashPassword } from '../../auth/password'
import { endUserSessions } from '../../auth/sessions'
import type { PowerGuard } from '../../auth/power'
import type { Links } from '../links/service'
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors'
import { rethrowUnique } from '../../lib/unique-violation'
import { containsPattern } from '../../lib/like'
import { inIdOrder, newestFirstPage } from '../../lib/newest-first-page'
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
 * rows are read; past 10,000 matches the total is an estimate (lib/newest-first-page.ts). A nickName
 * filter matches anywhere in the name, case-insensitively; from 3 characters on a trigram index serves it.
 */
export async function listUsers(
  db: Db,
  listCache: VersionedCache,
  q: UserListBody,
): Promise<PageResult<UserRow>> {
  const nickName = isBlank(q.nickName) ? null : q.nickName!.trim()
  const status = q.status ?? null
  const filters: SQL[] = []
  if (nickName) filters.push(ilike(users.nickName, containsPattern(nickName)))
  if (status != null) filters.push(eq(users.status, status))
  const { limit, offset } = page(q)
  const { ids, ...total } = await newestFirstPage(
    db,
    listCache,
    {
      source: { table: users, id: users.id, createTime: users.createTime },
      where: filters.length ? and(...filters) : undefined,
      key: `users:${JSON.stringify([nickName, status])}`,
    },
    { offset, limit },
  )
  const rows = ids.length ? await db.select(userRowColumns).from(users).where(inArray(users.id, ids)) : []
  return { list: inIdOrder(rows, ids).map(isoTimes), ...total }
}

/**
 * POST /user/namelist: the "link users" pickers' candidates, by nickName, ordered by id. With a group
 * or position id, the users already in that group / holding that position are left out, so the
 * picker never offers what is linked (as /role/namelist does for roles).
 */
export async function listUserCandidates(db: Db, q: UserNameListBody): Promise<PageResult<UserSimple>> {
  const filters: SQL[] = []
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

export async function getUser(db: Db, userId: number): Promise<UserDetail> {
  const [user] = await db
    .select({ ...userRowColumns, passwordIsInitial: users.passwordIsInitial })
    .from(users)
    .where(eq(users.id, userId))
  if (!user) throw notFound(USER_MSG.notFound)
  return { ...isoTimes(user), passwordIsInitial: user.passwordIsInitial === 1 }
}

/** A new or changed password, hashed before the write's transaction opens (lib/before-transaction.ts). */
export interface PreparedPassword {
  hash: string
  /** the configured initial password was used (no password given) */
  initial: boolean
}

/** The checks of a new user that need no database; answers the name as stored. */
function checkNewUser(body: UserInsertBody): string {
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
  initialPassword: string,
  body: UserInsertBody,
): Promise<PreparedPassword> {
  checkNewUser(body)
  const given = isBlank(body.password) ? null : body.password!
  return { hash: await hashPassword(given ?? initialPassword), initial: !given }
}

/** PUT /user/update before its transaction: the checks, then the new password's hash when one is given. */
export async function prepareUserUpdate(
  body: UserUpdateBody,
  operatorId: number,
): Promise<string | undefined> {
  // A stolen session must not become a takeover: one's own password changes only with the old one
  // (whatever the password, so this comes before its rules).
  if (body.id === operatorId && !isBlank(body.password)) throw forbidden(MSG.ownPasswordViaChange)
  checkUserUpdate(body)
  return isBlank(body.password) ? undefined : hashPassword(body.password!)
}

export async function insertUser(
  db: Db,
  password: PreparedPassword,
  operator: Operator,
  body: UserInsertBody,
): Promise<number> {
  const nickName = checkNewUser(body)
  await ensureNickNameFree(db, nickName)
  const [row] = await db
    .insert(users)
    .values({
      nickName,
      realName: optionalText(body.realName) ?? null,
      mobile: optionalText(body.mobile) ?? null,
      status: body.status ?? 1,
      passwordHash: password.hash,
      passwordIsInitial: password.initial ? 1 : 0,
      createUserId: operator.id,
      updateUserId: operator.id,
    })
    .returning({ id: users.id })
    .catch(onNickNameTaken)
  return row.id
}

/**
 * Any change to a user puts that user's whole power at stake (DESIGN.md §6a). `passwordHash`: the new
 * password's, from `prepareUserUpdate`, when the body gives one.
 */
export async function updateUser(
  db: Db,
  power: PowerGuard,
  operator: Operator,
  body: UserUpdateBody,
  passwordHash: string | undefined,
): Promise<void> {
  const self = body.id === operator.id
  const nickName = checkUserUpdate(body)
  const existing = await requireUser(db, body.id)
  if (self && body.status === 2) throw conflict(USER_MSG.freezeSelf)
  await ensureNickNameFree(db, nickName, body.id)
  await guardedChange(db, async (tx) => {
    await power.require(tx, operator.id, { userIds: [body.id] })
    await tx
      .update(users)
      .set({
        nickName,
        status: body.status,
        realName: optionalText(body.realName),
        mobile: optionalText(body.mobile),
        ...(passwordHash ? { passwordHash, passwordIsInitial: 0, failedLogins: 0, lockedUntil: null } : {}),
        updateTime: new Date(),
        updateUserId: operator.id,
      })
      .where(eq(users.id, body.id))
    if (body.status === 2 && existing.status !== 2) await endUserSessions(tx, body.id)
    else if (passwordHash) await endUserSessions(tx, body.id)
  }).catch(onNickNameTaken)
}

export async function deleteUser(
  db: Db,
  power: PowerGuard,
  operator: Operator,
  userId: number,
): Promise<void> {
  if (userId === operator.id) throw conflict(MSG.deleteSelf)
  await requireUser(db, userId)
  await guardedChange(db, async (tx) => {
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
export const linkRoles = (links: Links, operator: Operator, userId: number, roleIds: IdListInput) =>
  links.link({
    owner: 'user',
    ownerId: userId,
    target: 'role',
    targetIds: idsOf(roleIds, '角色'),
    operatorId: operator.id,
  })

export const unlinkRole = (links: Links, operator: Operator, userId: number, roleId: number) =>
  links.unlink({
    owner: 'user',
    ownerId: userId,
    target: 'role',
    targetIds: [roleId],
    operatorId: operator.id,
    requireTargets: true,
  })

export const linkGroups = (
  links: Links,
  operator: Operator,
  userId: number,
  groupIds: IdListInput | undefined,
) =>
  links.link({
    owner: 'user',
    ownerId: userId,
    target: 'group',
    targetIds: idsOf(groupIds, '用户组'),
    operatorId: operator.id,
  })

export const unlinkGroup = (links: Links, operator: Operator, userId: number, groupId: number) =>
  links.unlink({
    owner: 'user',
    ownerId: userId,
    target: 'group',
    targetIds: [groupId],
    operatorId: operator.id,
    requireTargets: true,
  })

export const linkPositions = (links: Links, operator: Operator, userId: number, positionIds: IdListInput) =>
  links.link({
    owner: 'user',
    ownerId: userId,
    target: 'position',
    targetIds: idsOf(positionIds, '岗位'),
    operatorId: operator.id,
  })

export const unlinkPosition = (links: Links, operator: Operator, userId: number, positionId: number) =>
  links.unlink({
    owner: 'user',
    ownerId: userId,
    target: 'position',
    targetIds: [positionId],
    operatorId: operator.id,
    requireTargets: true,
  })

// ---------------------------------------------------------------------------------------------
// Tab lists of one user
// ---------------------------------------------------------------------------------------------

export async function listUserRoles(db: Db, q: UserRoleListQuery): Promise<PageResult<UserRoleRow>> {
  await requireUser(db, q.userId)
  const filters: SQL[] = [eq(userRoles.userId, q.userId)]
  if (!isBlank(q.roleName)) filters.push(ilike(roles.roleName, containsPattern(q.roleName!.trim())))
  const where = and(...filters)
  const { limit, offset } = page(q)
  const [list, [{ total }]] = await Promise.all([
    db
      .select({
        id: roles.id,
        roleName: roles.roleName,
        type: roles.type,
        status: roles.status,
        description: roles.description,
      })
      .from(userRoles)
      .innerJoin(roles, eq(roles.id, userRoles.roleId))
      .where(where)
      .orderBy(asc(roles.id))
      .limit(limit)
      .offset(offset),
    db
      .select({ total: count() })
      .from(userRoles)
      .innerJoin(roles, eq(roles.id, userRoles.roleId))
      .where(where),
  ])
  return { list, total: Number(total) }
}

export async function listUserGroups(db: Db, q: UserGroupListQuery): Promise<PageResult<UserGroupRow>> {
  await requireUser(db, q.userId)
  const filters: SQL[] = [eq(userGroupUsers.userId, q.userId)]
  if (!isBlank(q.groupName)) filters.push(ilike(userGroups.groupName, containsPattern(q.groupName!.trim())))
  const where = and(...filters)
  const { limit, offset } = page(q)
  const [list, [{ total }]] = await Promise.all([
    db
      .select({
        id: userGroups.id,
        groupName: userGroups.groupName,
        status: userGroups.status,
        description: userGroups.description,
      })
      .from(userGroupUsers)
      .innerJoin(userGroups, eq(userGroups.id, userGroupUsers.groupId))
      .where(where)
      .orderBy(asc(userGroups.id))
      .limit(limit)
      .offset(offset),
    db
      .select({ total: count() })
      .from(userGroupUsers)
      .innerJoin(userGroups, eq(userGroups.id, userGroupUsers.groupId))
      .where(where),
  ])
  return { list, total: Number(total) }
}

/** Positions a user holds, each with its department's full path name (root first, joined by '-'). */
export async function listUserPositions(
  db: Db,
  q: UserPositionListQuery,
): Promise<PageResult<UserPositionRow>> {
  await requireUser(db, q.userId)
  const { limit, offset } = page(q)
  const ctes: SQL[] = []
  if (q.orgId != null)
    ctes.push(sql`subtree(id) as (
      select id from organizations where id = ${q.orgId}
      union
      select o.id from organizations o join subtree s on o.parent = s.id
    )`)
  const held = sql`
    select p.id, p.org_id, p.station_id, p.status, p.type from position_users pu
    join positions p on p.id = pu.position_id
    where pu.user_id = ${q.userId}
    ${q.stationId != null ? sql`and p.station_id = ${q.stationId}` : sql``}
    ${q.orgId != null ? sql`and p.org_id in (select id from subtree)` : sql``}`
  const withCtes = (list: SQL[]) => (list.length ? sql`with recursive ${sql.join(list, sql`, `)}` : sql``)

  const [countRow] = await queryRows<{ n: number | string }>(
    db,
    sql`${withCtes(ctes)} select count(*) as n from (${held}) h`,
  )
  const rows = await queryRows<{
    id: number
    org_id: number
    station_id: number
    status: number
    type: number
    station_name: string
    complete_name: string | null
  }>(
    db,
    sql`${withCtes([
      ...ctes,
      sql`page as (${held} order by p.id limit ${limit} offset ${offset})`,
      // each held department's path up to the root, named root first
      sql`up(org_id, cur_id, parent, name, depth) as (
        select o.id, o.id, o.parent, o.organization_name, 0 from organizations o
          where o.id in (select org_id from page)
        union all
        select up.org_id, o.id, o.parent, o.organization_name, up.depth + 1 from up
          join organizations o on o.id = up.parent
          where up.depth < 100
      )`,
      sql`names as (select org_id, string_agg(name, '-' order by depth desc) as complete_name from up group by org_id)`,
    ])}
    select page.id, page.org_id, page.station_id, page.status, page.type, s.station_name, names.complete_name
    from page
    join stations s on s.id = page.station_id
    left join names on names.org_id = page.org_id
    order by page.id`,
  )
  return {
    total: Number(countRow?.n ?? 0),
    list: rows.map((r) => ({
      id: Number(r.id),
      orgId: Number(r.org_id),
      stationId: Number(r.station_id),
      organizationCompleteName: r.complete_name ?? '',
      stationName: r.station_name,
      status: Number(r.status),
      type: Number(r.type),
    })),
  }
}
