import { inArray } from 'drizzle-orm'
import type { Db } from '../../db/connection'
import { organizations } from '../../db/schema'
import type { Authorizer } from '../../auth/authorizer'

/** DESIGN.md §16: at most this many permission codes in a token or userinfo answer. */
export const MAX_PERMISSION_CLAIMS = 200

/** The scopes this provider offers beyond `openid`, `profile` and `offline_access`, each a claim of its name. */
export const EXTRA_SCOPES = ['roles', 'permissions', 'departments'] as const

/**
 * What an application learns about a user, by scope: `roles` the role names, `permissions` the
 * user's codes inside the application's own subtree only (another service's power is none of its
 * business, and ams's is this server's), `departments` the user's own departments.
 */
export async function scopedClaims(
  db: Db,
  authz: Authorizer,
  userId: number,
  clientId: string,
  scopes: ReadonlySet<string>,
): Promise<Record<string, unknown>> {
  const claims: Record<string, unknown> = {}
  if (!scopes.has('roles') && !scopes.has('permissions') && !scopes.has('departments')) return claims
  const access = await authz.resolve(userId)
  if (scopes.has('roles')) claims.roles = access.roles.map((r) => r.roleName)
  if (scopes.has('permissions')) {
    const tree = await authz.loadStoredTree()
    const held = access.superAdmin
      ? [...tree.values()].filter((n) => n.status === 1).map((n) => n.code)
      : access.authCodes
    claims.permissions = held
      .filter((code) => tree.get(code)?.service === clientId)
      .slice(0, MAX_PERMISSION_CLAIMS)
  }
  if (scopes.has('departments')) {
    const ids = [...access.ownOrgIds]
    claims.departments = ids.length
      ? (
          await db
            .select({ id: organizations.id, name: organizations.organizationName })
            .from(organizations)
            .where(inArray(organizations.id, ids))
        ).map((o) => ({ id: o.id, name: o.name }))
      : []
  }
  return claims
}
