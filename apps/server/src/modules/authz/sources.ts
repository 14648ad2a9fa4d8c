import { sql, type SQL } from 'drizzle-orm'
import type { AuthzVia, ViaKind } from '@amg/contract'
import { queryRows, type DbOrTx } from '../../db/connection'
import { reach } from '../../auth/reach'
import { orgCompleteNames } from '../position/org-paths'

/** One way a user holds a role: the role, and the link that brings it (DESIGN.md §6). */
export interface RoleSource {
  userId: number
  role: { id: number; roleName: string; type: number }
  via: AuthzVia
}

interface SourceRow {
  user_id: number
  role_id: number
  role_name: string
  role_type: number
  kind: ViaKind
  via_id: number
  via_name: string | null
  org_id: number | null
}

/**
 * Every (user, enabled role, link) triple as the authorizer counts them: enabled roles reached
 * directly, through enabled groups and through enabled positions, positions named `部门全称-职位名`
 * as the console shows them. `userFilter` and `roleFilter` are conditions on the user's and the
 * role's id (e.g. `= 5` or `in (…)`), so one query serves one user (effective, explain) and a page
 * of users (who-can).
 */
export async function loadSources(db: DbOrTx, userFilter: SQL, roleFilter?: SQL): Promise<RoleSource[]> {
  // a direct link is named by its role
  const rows = await queryRows<SourceRow>(
    db,
    sql`select s.user_id, r.id as role_id, r.role_name, r.type as role_type, s.kind, s.via_id,
          case s.kind when 'direct' then r.role_name else s.via_name end as via_name, s.org_id
        from (${reach({ users: userFilter, roles: roleFilter, named: true })}) s
        join roles r on r.id = s.role_id and r.status = 1
        order by 1, 2, 5, 6`,
  )
  const orgNames = await orgCompleteNames(
    db,
    rows.filter((r) => r.org_id != null).map((r) => Number(r.org_id)),
  )
  return rows.map((r) => ({
    userId: Number(r.user_id),
    role: { id: Number(r.role_id), roleName: r.role_name, type: Number(r.role_type) },
    via: {
      kind: r.kind,
      id: Number(r.via_id),
      name:
        r.kind === 'position'
          ? `${orgNames.get(Number(r.org_id)) ?? ''}-${r.via_name ?? ''}`
          : (r.via_name ?? ''),
    },
  }))
}

/** The distinct links among some sources, in order (a group carrying two roles is listed once). */
export function distinctVia(sources: readonly RoleSource[]): AuthzVia[] {
  const seen = new Set<string>()
  const out: AuthzVia[] = []
  for (const s of sources) {
    const key = `${s.via.kind}:${s.via.id}`
    if (!seen.has(key)) {
      seen.add(key)
      out.push(s.via)
    }
  }
  return out
}

/** role_id → codes it holds, for the given roles. */
export async function roleCodes(db: DbOrTx, roleIds: readonly number[]): Promise<Map<number, string[]>> {
  const map = new Map<number, string[]>()
  if (roleIds.length === 0) return map
  const rows = await queryRows<{ role_id: number; auth_code: string }>(
    db,
    sql`select role_id, auth_code from role_auths
        where role_id in (${sql.join([...new Set(roleIds)], sql`, `)}) order by auth_code`,
  )
  for (const r of rows) {
    const id = Number(r.role_id)
    map.set(id, [...(map.get(id) ?? []), r.auth_code])
  }
  return map
}
