import { and, eq, inArray, sql } from 'drizzle-orm'
import { DATA_SCOPE, ROLE_TYPE } from '@amg/contract'
import { queryRows, type Db, type DbOrTx, type Tx } from '../../db/connection'
import { roleAuths, roles, roleScopeOrgs } from '../../db/schema'
import { notFound } from '../../lib/errors'
import type { PowerGuard } from '../../auth/power'
import type { Stake } from '../../auth/power-stake'
import { requireWritableUsers, type Caller } from '../../auth/user-scope'
import { usersReaching } from '../../auth/reach'
import { enablingGrants, writeWithinReach } from '../links/reach-grants'
import { scopeOrgsOf } from './role-read'
import { checkRequestFields } from './role-request-fields'
import { checkAuthCodes, checkNameFree, checkScope, onNameTaken, ROLE_MSG, trimmedOrNull } from './role-rules'

/**
 * A role's creation, change and deletion, whichever screen asks (role-kinds.ts says which roles each
 * may touch). Each runs the power check (DESIGN.md §6a) and the reach check (§13) in its transaction.
 */

/**
 * Stores the role's permissions, touching only the rows that change: a permission kept is neither
 * removed nor added, so the operation log and the change events name only what changed.
 */
async function replaceAuthCodes(tx: Tx, roleId: number, codes: string[]) {
  const rows = await tx
    .select({ code: roleAuths.authCode })
    .from(roleAuths)
    .where(eq(roleAuths.roleId, roleId))
  const held = new Set(rows.map((r) => r.code))
  const wanted = new Set(codes)
  const gone = [...held].filter((code) => !wanted.has(code))
  const added = [...wanted].filter((code) => !held.has(code))
  if (gone.length)
    await tx.delete(roleAuths).where(and(eq(roleAuths.roleId, roleId), inArray(roleAuths.authCode, gone)))
  if (added.length) await tx.insert(roleAuths).values(added.map((authCode) => ({ roleId, authCode })))
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

export interface NewRole {
  roleName: string
  description?: string | null
  authCodes?: string[]
  dataScope?: number
  scopeOrgIds?: number[]
  type: number
  status: number
  requestable?: boolean
  requestApprovals?: number
  approverRoleIds?: number[]
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

export async function createRole(
  db: Db,
  power: PowerGuard,
  input: NewRole,
  operatorId: number,
): Promise<number> {
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
          ...(await checkRequestFields(tx, input)),
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

export interface RoleChange {
  id: number
  roleName: string
  description?: string | null
  authCodes?: string[]
  /** absent: the stored scope stays; `scopeOrgIds` alone replaces the departments of a 自定义部门 role */
  dataScope?: number
  scopeOrgIds?: number[]
  status: number
  type?: number
  requestable?: boolean
  requestApprovals?: number
  approverRoleIds?: number[]
}

/** Applies a change after `guard` accepted the stored role (locked for the transaction). */
export async function changeRole(
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
      if (!role) throw notFound(ROLE_MSG.notFound)
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
            ...(await checkRequestFields(tx, input)),
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
export async function removeRole(
  db: Db,
  power: PowerGuard,
  id: number,
  caller: Caller,
  guard: (type: number) => void,
): Promise<void> {
  await db.transaction(async (tx) => {
    const [role] = await tx.select({ type: roles.type }).from(roles).where(eq(roles.id, id)).for('update')
    if (!role) throw notFound(ROLE_MSG.notFound)
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
