import { and, asc, count, eq, ilike, inArray, notExists, sql, type SQL } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import {
  DATA_SCOPE,
  MSG,
  ROLE_TYPE,
  unknownScopeOrgs,
  type AdminRoleInsertBody,
  type AdminRoleUpdateBody,
  type PageResult,
  type RoleDetail,
  type RoleInsertBody,
  type RoleListBody,
  type RoleNameListBody,
  type RoleRow,
  type RoleSimple,
  type RoleUpdateBody,
} from '@amg/contract'
import { queryRows, type Db, type DbOrTx, type Tx } from '../../db/connection'
import {
  auths,
  organizations,
  positionRoles,
  roleAuths,
  roles,
  roleScopeOrgs,
  userGroupRoles,
  userRoles,
  users,
} from '../../db/schema'
import { badRequest, conflict, notFound } from '../../lib/errors'
import { rethrowUnique } from '../../lib/unique-violation'
import { markGrantable, type PowerGuard, type Stake } from '../../auth/power'
import { requireWritableUsers, type Caller } from '../../auth/user-scope'
import { usersReaching } from '../../auth/reach'
import { enablingGrants, writeWithinReach } from '../links/reach-grants'
import { containsPattern } from '../../lib/like'
import type { VersionedCache } from '../../cache/versioned-cache'

export const ROLE_NOT_FOUND = '角色不存在'
export const ROLE_NAME_EXISTS = '角色名称已存在'
export const ONLY_ORDINARY_UPDATE = '只能修改普通角色'
export const ONLY_ORDINARY_DELETE = '只能删除普通角色'
export const SUPER_ADMIN_NOT_EDITABLE = '超级管理员角色不能修改'
export const SUPER_ADMIN_NOT_DELETABLE = '超级管理员角色不能删除'
export const ORDINARY_VIA_ROLE_UPDATE = '普通角色请在角色管理中修改'
export const ORDINARY_VIA_ROLE_DELETE = '普通角色请在角色管理中删除'
export const unknownAuthCodes = (codes: string[]) => `权限不存在：${codes.join(', ')}`

/** The namelist is a picker, not a page: it answers at most this many roles. */
export const NAMELIST_LIMIT = 200

const trimmedOrNull = (v: string | null | undefined) =>
  v === undefined || v === null || v.trim() === '' ? null : v.trim()

/**
 * POST /role/namelist: roles by name substring and status, ordered by id. With userGroupId,
 * positionId or userId it answers only the roles not yet linked to that group, position or user
 * (the candidates the "link roles" popover offers), each marked with whether the caller may grant it.
 */
export async function roleNameList(
  db: Db,
  power: PowerGuard,
  callerId: number,
  q: RoleNameListBody,
): Promise<RoleSimple[]> {
  const where: SQL[] = []
  const name = trimmedOrNull(q.roleName)
  if (name) where.push(ilike(roles.roleName, containsPattern(name)))
  if (q.status) where.push(eq(roles.status, q.status))
  if (q.userGroupId)
    where.push(
      notExists(
        db
          .select({ x: sql`1` })
          .from(userGroupRoles)
          .where(and(eq(userGroupRoles.groupId, q.userGroupId), eq(userGroupRoles.roleId, roles.id))),
      ),
    )
  if (q.positionId)
    where.push(
      notExists(
        db
          .select({ x: sql`1` })
          .from(positionRoles)
          .where(and(eq(positionRoles.positionId, q.positionId), eq(positionRoles.roleId, roles.id))),
      ),
    )
  if (q.userId)
    where.push(
      notExists(
        db
          .select({ x: sql`1` })
          .from(userRoles)
          .where(and(eq(userRoles.userId, q.userId), eq(userRoles.roleId, roles.id))),
      ),
    )
  const candidates = await db
    .select({ id: roles.id, roleName: roles.roleName, type: roles.type, status: roles.status })
    .from(roles)
    .where(and(...where))
    .orderBy(asc(roles.id))
    .limit(NAMELIST_LIMIT)
  return markGrantable(db, power, callerId, candidates, async (ids) => new Map(ids.map((id) => [id, [id]])))
}

/** Each role's chosen departments (自定义部门, DESIGN.md §13), ascending. */
async function scopeOrgsOf(db: DbOrTx, roleIds: readonly number[]): Promise<Map<number, number[]>> {
  const byRole = new Map<number, number[]>()
  if (!roleIds.length) return byRole
  const rows = await db
    .select({ roleId: roleScopeOrgs.roleId, orgId: roleScopeOrgs.orgId })
    .from(roleScopeOrgs)
    .where(inArray(roleScopeOrgs.roleId, [...roleIds]))
    .orderBy(asc(roleScopeOrgs.orgId))
  for (const r of rows) byRole.set(r.roleId, [...(byRole.get(r.roleId) ?? []), r.orgId])
  return byRole
}

const createUser = alias(users, 'create_user')
const updateUser = alias(users, 'update_user')

/** Role rows with their creator and updater, joined once. */
function selectRoleRows(db: DbOrTx, extra: { total?: SQL<number> } = {}) {
  return db
    .select({
      ...extra,
      id: roles.id,
      roleName: roles.roleName,
      type: roles.type,
      status: roles.status,
      description: roles.description,
      dataScope: roles.dataScope,
      createTime: roles.createTime,
      updateTime: roles.updateTime,
      createUserId: createUser.id,
      createUserNickName: createUser.nickName,
      updateUserId: updateUser.id,
      updateUserNickName: updateUser.nickName,
    })
    .from(roles)
    .leftJoin(createUser, eq(createUser.id, roles.createUserId))
    .leftJoin(updateUser, eq(updateUser.id, roles.updateUserId))
}

type JoinedRow = Awaited<ReturnType<ReturnType<typeof selectRoleRows>['execute']>>[number]

function toRoleRow(r: JoinedRow, scopeOrgIds: ReadonlyMap<number, number[]>): RoleRow {
  return {
    id: r.id,
    roleName: r.roleName,
    type: r.type,
    status: r.status,
    description: r.description,
    dataScope: r.dataScope,
    scopeOrgIds: scopeOrgIds.get(r.id) ?? [],
    createTime: r.createTime,
    updateTime: r.updateTime,
    createUserVo: r.createUserId !== null ? { id: r.createUserId, nickName: r.createUserNickName! } : null,
    updateUserVo: r.updateUserId !== null ? { id: r.updateUserId, nickName: r.updateUserNickName! } : null,
  } as unknown as RoleRow
}

/**
 * The role list's filters (POST /role/listall), the one builder its export shares; `key` names them
 * (the types in order, so the same choice is one cache entry).
 */
export function roleListFilters(q: Pick<RoleListBody, 'roleName' | 'status' | 'types'>) {
  const name = trimmedOrNull(q.roleName)
  const types = q.types?.length ? [...new Set(q.types)].sort((a, b) => a - b) : null
  const where: SQL[] = []
  if (name) where.push(ilike(roles.roleName, containsPattern(name)))
  if (q.status) where.push(eq(roles.status, q.status))
  if (types) where.push(inArray(roles.type, types))
  return { where: and(...where), key: JSON.stringify([name, q.status ?? null, types]) }
}

/**
 * POST /role/listall: a page of roles; empty or absent `types` means every type. Each page asked for is
 * kept until a role (or a creator's name) changes: the console and other systems ask for the same few
 * pages over and over.
 */
export async function listRoles(
  db: Db,
  cache: VersionedCache,
  q: RoleListBody,
): Promise<PageResult<RoleRow>> {
  const pageNum = q.pageNum ?? 1
  const pageSize = q.pageSize ?? 10
  const { where: condition, key: filters } = roleListFilters(q)
  const key = `roles:${JSON.stringify([filters, pageNum, pageSize])}`
  return cache.get(key, async () => {
    // the page and the total in one round trip; only a page past the end needs a count of its own
    const rows = await selectRoleRows(db, { total: sql<number>`count(*) over ()` })
      .where(condition)
      .orderBy(asc(roles.id))
      .limit(pageSize)
      .offset((pageNum - 1) * pageSize)
    const total = rows.length
      ? Number(rows[0].total)
      : Number((await db.select({ total: count() }).from(roles).where(condition))[0].total)
    const orgs = await scopeOrgsOf(
      db,
      rows.map((r) => r.id),
    )
    return { list: rows.map((r) => toRoleRow(r, orgs)), total }
  })
}

export async function roleDetail(db: Db, id: number): Promise<RoleDetail> {
  const [row] = await selectRoleRows(db).where(eq(roles.id, id))
  if (!row) throw notFound(ROLE_NOT_FOUND)
  const codes = await db
    .select({ code: roleAuths.authCode })
    .from(roleAuths)
    .where(eq(roleAuths.roleId, id))
    .orderBy(asc(roleAuths.authCode))
  return { ...toRoleRow(row, await scopeOrgsOf(db, [id])), authCodes: codes.map((c) => c.code) }
}

/** Unique, trimmed codes that all exist in the tree; unknown ones are refused by name. */
async function checkAuthCodes(tx: DbOrTx, input: readonly string[]): Promise<string[]> {
  const codes = [...new Set(input.map((c) => c.trim()).filter((c) => c !== ''))]
  if (!codes.length) return []
  const found = await tx.select({ code: auths.code }).from(auths).where(inArray(auths.code, codes))
  const known = new Set(found.map((f) => f.code))
  const missing = codes.filter((c) => !known.has(c))
  if (missing.length) throw badRequest(unknownAuthCodes(missing))
  return codes
}

/** The index catches what checkNameFree cannot: two requests passing it at the same moment. */
const onNameTaken = rethrowUnique({ roles_role_name_key: ROLE_NAME_EXISTS })

async function checkNameFree(tx: DbOrTx, roleName: string, ownId: number | null) {
  const [other] = await tx.select({ id: roles.id }).from(roles).where(eq(roles.roleName, roleName)).limit(1)
  if (other && other.id !== ownId) throw conflict(ROLE_NAME_EXISTS)
}

async function replaceAuthCodes(tx: Tx, roleId: number, codes: string[]) {
  await tx.delete(roleAuths).where(eq(roleAuths.roleId, roleId))
  if (codes.length) await tx.insert(roleAuths).values(codes.map((authCode) => ({ roleId, authCode })))
}

/**
 * The scope a role will be stored with (DESIGN.md §13): 自定义部门 needs at least one department and
 * every one must exist (else 400, nothing changed); the other scopes keep no departments.
 */
async function checkScope(
  tx: DbOrTx,
  type: number,
  dataScope: number,
  input: readonly number[] | undefined,
): Promise<{ dataScope: number; orgIds: number[] }> {
  // a super-admin role passes everything: its data is all the company's, whatever was asked
  if (type === ROLE_TYPE.superAdmin) return { dataScope: DATA_SCOPE.all, orgIds: [] }
  if (dataScope !== DATA_SCOPE.custom) return { dataScope, orgIds: [] }
  const orgIds = [...new Set(input ?? [])].sort((a, b) => a - b)
  if (!orgIds.length) throw badRequest(MSG.scopeOrgIdsRequired)
  const found = await tx
    .select({ id: organizations.id })
    .from(organizations)
    .where(inArray(organizations.id, orgIds))
  const known = new Set(found.map((f) => f.id))
  const missing = orgIds.filter((id) => !known.has(id))
  if (missing.length) throw badRequest(unknownScopeOrgs(missing))
  return { dataScope, orgIds }
}

/** Stores the chosen departments, touching only the rows that change (the operation log shows just those). */
async function replaceScopeOrgs(tx: Tx, roleId: number, orgIds: readonly number[]) {
  const held = (await scopeOrgsOf(tx, [roleId])).get(roleId) ?? []
  const gone = held.filter((id) => !orgIds.includes(id))
  const added = orgIds.filter((id) => !held.includes(id))
  if (gone.length)
    await tx
      .delete(roleScopeOrgs)
      .where(and(eq(roleScopeOrgs.roleId, roleId), inArray(roleScopeOrgs.orgId, gone)))
  if (added.length) await tx.insert(roleScopeOrgs).values(added.map((orgId) => ({ roleId, orgId })))
}

interface NewRole {
  roleName: string
  description?: string | null
  authCodes?: string[]
  dataScope?: number
  scopeOrgIds?: number[]
  type: number
  status: number
}

/**
 * The power check of a role's contents (DESIGN.md §6a): what the role held before (`roleId`) and
 * what it will hold (`codes`), disabled nodes included, whatever the role's own status (enabling a
 * role switches all of it on); a super-admin role is all power, for super admins only.
 */
const roleStake = (roleId: number | null, codes: string[] | undefined, type: number): Stake => ({
  allPower: type === ROLE_TYPE.superAdmin,
  roleIds: roleId === null ? [] : [roleId],
  authCodes: codes ?? [],
})

async function createRole(db: Db, power: PowerGuard, input: NewRole, operatorId: number): Promise<number> {
  const roleName = input.roleName.trim()
  return db
    .transaction(async (tx) => {
      await checkNameFree(tx, roleName, null)
      const codes = await checkAuthCodes(tx, input.authCodes ?? [])
      const scope = await checkScope(tx, input.type, input.dataScope ?? DATA_SCOPE.all, input.scopeOrgIds)
      await power.require(tx, operatorId, roleStake(null, codes, input.type))
      await power.requireReach(tx, operatorId, {
        roleId: null,
        scope: { dataScope: scope.dataScope, scopeOrgIds: scope.orgIds },
        codes,
      })
      const [role] = await tx
        .insert(roles)
        .values({
          roleName,
          description: trimmedOrNull(input.description),
          dataScope: scope.dataScope,
          type: input.type,
          status: input.status,
          createUserId: operatorId,
          updateUserId: operatorId,
        })
        .returning({ id: roles.id })
      await replaceAuthCodes(tx, role.id, codes)
      await replaceScopeOrgs(tx, role.id, scope.orgIds)
      return role.id
    })
    .catch(onNameTaken)
}

/**
 * What a role change gives with which reach (DESIGN.md §13): when the scope changes, every permission
 * the role will hold, with the new scope; otherwise only the permissions added, with the stored one.
 */
async function reachStake(
  tx: DbOrTx,
  roleId: number,
  storedScope: number,
  scope: { dataScope: number; orgIds: number[] } | undefined,
  codes: string[] | undefined,
) {
  const stored = (
    await tx.select({ code: roleAuths.authCode }).from(roleAuths).where(eq(roleAuths.roleId, roleId))
  ).map((r) => r.code)
  const storedOrgs = (await scopeOrgsOf(tx, [roleId])).get(roleId) ?? []
  const changed =
    scope !== undefined &&
    (scope.dataScope !== storedScope ||
      scope.orgIds.length !== storedOrgs.length ||
      scope.orgIds.some((id) => !storedOrgs.includes(id)))
  const after = codes ?? stored
  return {
    roleId,
    scope: scope
      ? { dataScope: scope.dataScope, scopeOrgIds: scope.orgIds }
      : { dataScope: storedScope, scopeOrgIds: storedOrgs },
    codes: changed ? after : after.filter((c) => !stored.includes(c)),
  }
}

interface RoleChange {
  id: number
  roleName: string
  description?: string | null
  authCodes?: string[]
  /** absent: the stored scope stays; `scopeOrgIds` alone replaces the departments of a 自定义部门 role */
  dataScope?: number
  scopeOrgIds?: number[]
  status: number
  type?: number
}

/** Applies a change after `guard` accepted the stored role (locked for the transaction). */
async function changeRole(
  db: Db,
  power: PowerGuard,
  input: RoleChange,
  operatorId: number,
  guard: (type: number) => void,
): Promise<void> {
  const roleName = input.roleName.trim()
  await db
    .transaction(async (tx) => {
      const [role] = await tx
        .select({ type: roles.type, dataScope: roles.dataScope, status: roles.status })
        .from(roles)
        .where(eq(roles.id, input.id))
        .for('update')
      if (!role) throw notFound(ROLE_NOT_FOUND)
      guard(role.type)
      await checkNameFree(tx, roleName, input.id)
      const codes = input.authCodes === undefined ? undefined : await checkAuthCodes(tx, input.authCodes)
      const type = input.type ?? role.type
      const scopeChanges =
        input.dataScope !== undefined || input.scopeOrgIds !== undefined || type !== role.type
      const scope = scopeChanges
        ? await checkScope(
            tx,
            type,
            input.dataScope ?? role.dataScope,
            input.scopeOrgIds ?? (await scopeOrgsOf(tx, [input.id])).get(input.id),
          )
        : undefined
      await power.require(tx, operatorId, roleStake(input.id, codes, input.type ?? role.type))
      await power.requireReach(tx, operatorId, await reachStake(tx, input.id, role.dataScope, scope, codes))
      const write = async () => {
        await tx
          .update(roles)
          .set({
            roleName,
            description: trimmedOrNull(input.description),
            status: input.status,
            ...(input.type !== undefined ? { type: input.type } : {}),
            ...(scope ? { dataScope: scope.dataScope } : {}),
            updateUserId: operatorId,
            updateTime: new Date(),
          })
          .where(eq(roles.id, input.id))
        if (codes) await replaceAuthCodes(tx, input.id, codes)
        if (scope) await replaceScopeOrgs(tx, input.id, scope.orgIds)
      }
      // enabling gives the role, with its scope, to everyone who holds it (DESIGN.md §13)
      if (role.status !== 1 && input.status === 1)
        await writeWithinReach(tx, power, operatorId, write, () => enablingGrants(tx, 'role', input.id))
      else await write()
    })
    .catch(onNameTaken)
}

/**
 * Roles are company-wide, but deleting one takes it from everyone who holds it, through any carrier:
 * all of them must lie in the caller's scope (DESIGN.md §13), as for deleting a group.
 */
async function removeRole(
  db: Db,
  power: PowerGuard,
  id: number,
  caller: Caller,
  guard: (type: number) => void,
): Promise<void> {
  await db.transaction(async (tx) => {
    const [role] = await tx.select({ type: roles.type }).from(roles).where(eq(roles.id, id)).for('update')
    if (!role) throw notFound(ROLE_NOT_FOUND)
    guard(role.type)
    if (!caller.scope.all) {
      const holders = await queryRows<{ user_id: number }>(
        tx,
        sql`select distinct user_id from (${usersReaching({ roles: sql`= ${id}`, carriers: 'every' })}) h`,
      )
      await requireWritableUsers(
        tx,
        caller,
        holders.map((r) => Number(r.user_id)),
      )
    }
    await power.require(tx, caller.id, roleStake(id, [], role.type))
    // Grants and links to users, groups and positions go with it (foreign keys cascade).
    await tx.delete(roles).where(eq(roles.id, id))
  })
}

const ordinaryOnly = (message: string) => (type: number) => {
  if (type !== ROLE_TYPE.ordinary) throw conflict(message)
}
const adminOnly = (superAdminMessage: string, ordinaryMessage: string) => (type: number) => {
  if (type === ROLE_TYPE.superAdmin) throw conflict(superAdminMessage)
  if (type === ROLE_TYPE.ordinary) throw conflict(ordinaryMessage)
}

/** POST /role/insert: an ordinary role (type 3), enabled. */
export const insertRole = (db: Db, power: PowerGuard, body: RoleInsertBody, operatorId: number) =>
  createRole(db, power, { ...body, type: ROLE_TYPE.ordinary, status: 1 }, operatorId)

/** PUT /role/update: ordinary roles only. */
export const updateRole = (db: Db, power: PowerGuard, body: RoleUpdateBody, operatorId: number) =>
  changeRole(db, power, body, operatorId, ordinaryOnly(ONLY_ORDINARY_UPDATE))

/** DELETE /role/delete: ordinary roles only. */
export const deleteRole = (db: Db, power: PowerGuard, id: number, caller: Caller) =>
  removeRole(db, power, id, caller, ordinaryOnly(ONLY_ORDINARY_DELETE))

/** POST /role/admin/insert: a super-admin (1, super admins only) or built-in (2) role; defaults type 2, status 1. */
export const insertAdminRole = (db: Db, power: PowerGuard, body: AdminRoleInsertBody, operatorId: number) =>
  createRole(
    db,
    power,
    { ...body, type: body.type ?? ROLE_TYPE.builtIn, status: body.status ?? 1 },
    operatorId,
  )

/**
 * PUT /role/admin/update: built-in roles only; a super-admin role is never editable, and promoting
 * a built-in role to type 1 is for super admins only (the power check: type 1 is all power).
 */
export const updateAdminRole = (db: Db, power: PowerGuard, body: AdminRoleUpdateBody, operatorId: number) =>
  changeRole(db, power, body, operatorId, adminOnly(SUPER_ADMIN_NOT_EDITABLE, ORDINARY_VIA_ROLE_UPDATE))

/** DELETE /role/admin/delete: built-in roles only; a super-admin role is never deletable. */
export const deleteAdminRole = (db: Db, power: PowerGuard, id: number, caller: Caller) =>
  removeRole(db, power, id, caller, adminOnly(SUPER_ADMIN_NOT_DELETABLE, ORDINARY_VIA_ROLE_DELETE))
