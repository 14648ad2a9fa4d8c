import { eq, sql } from 'drizzle-orm'
import type { AuthzRoleImpactBody, AuthzRoleImpactResult } from '@amg/contract'
import { queryRows, type Db } from '../../db/connection'
import { roles } from '../../db/schema'
import type { Authorizer } from '../../auth/authorizer'
import { usersReaching } from '../../auth/reach'
import { notFound } from '../../lib/errors'
import { roleCodes } from './sources'

export const ROLE_NOT_FOUND = '角色不存在'

/**
 * What saving `authCodes` on a role would change, before it is saved: how many active users hold
 * the role (directly, via an enabled group or position) and which enabled nodes they gain or lose.
 * Disabled codes give no power yet, so they are left out of both lists; they are listed apart as
 * `dormant` (every disabled node of the new set), the stored power that comes alive the moment the
 * node is enabled (DESIGN.md §6a). Unknown codes are left out everywhere.
 */
export async function roleImpact(
  db: Db,
  authz: Authorizer,
  body: AuthzRoleImpactBody,
): Promise<AuthzRoleImpactResult> {
  const [role] = await db.select({ id: roles.id }).from(roles).where(eq(roles.id, body.roleId)).limit(1)
  if (!role) throw notFound(ROLE_NOT_FOUND)
  // The role's own status does not matter here: the count is who the role reaches once enabled.
  const holders = await queryRows<{ users: number }>(
    db,
    sql`select count(*)::int as users from users u
        where u.status = 1 and u.id in (${usersReaching({ roles: sql`= ${role.id}` })})`,
  )
  const tree = await authz.loadEnabledTree()
  const stored = await authz.loadStoredTree()
  const before = new Set((await roleCodes(db, [role.id])).get(role.id) ?? [])
  const after = new Set(body.authCodes)
  const ref = (code: string) => ({ code, chName: tree.get(code)!.chName })
  const gained = [...after]
    .filter((c) => tree.has(c) && !before.has(c))
    .sort()
    .map(ref)
  const lost = [...before]
    .filter((c) => tree.has(c) && !after.has(c))
    .sort()
    .map(ref)
  const dormant = [...after]
    .filter((c) => stored.has(c) && !tree.has(c))
    .sort()
    .map((code) => ({ code, chName: stored.get(code)!.chName }))
  return { users: Number(holders[0]?.users ?? 0), gained, lost, dormant }
}
