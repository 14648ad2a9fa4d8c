import { sql } from 'drizzle-orm'
import { beyondPowerMessage } from '@amg/contract'
import { queryRows, type DbOrTx } from '../db/connection'
import { intArray } from '../db/sql-arrays'
import type { PowerGuard } from './power'

/** For link pickers: which candidates the caller may grant (roles, groups, positions), judged by the power check. */

/**
 * Marks link-picker candidates (roles, groups or positions) with whether the caller may grant
 * them and, when not, the refusal the link call would answer.
 */
export async function markGrantable<T extends { id: number }>(
  db: DbOrTx,
  power: PowerGuard,
  callerId: number,
  candidates: T[],
  rolesOf: (ids: number[]) => Promise<Map<number, number[]>>,
): Promise<(T & { grantable: boolean; denyReason: string | null })[]> {
  const rolesByOwner = candidates.length ? await rolesOf(candidates.map((c) => c.id)) : new Map()
  const lacked = await power.missingPerOwner(db, callerId, rolesByOwner)
  return candidates.map((c) => {
    const missing = lacked.get(c.id) ?? []
    return {
      ...c,
      grantable: missing.length === 0,
      denyReason: missing.length ? beyondPowerMessage(missing) : null,
    }
  })
}

/** The roles each owner carries, from one of the link tables (`user_group_roles`, `position_roles`). */
export async function rolesCarried(
  db: DbOrTx,
  table: 'user_group_roles' | 'position_roles',
  ownerIds: number[],
): Promise<Map<number, number[]>> {
  const ownerColumn = table === 'user_group_roles' ? 'group_id' : 'position_id'
  const rows = await queryRows<{ owner: number; role_id: number }>(
    db,
    sql`select ${sql.identifier(ownerColumn)} as owner, role_id from ${sql.identifier(table)}
      where ${sql.identifier(ownerColumn)} = any(${intArray(ownerIds)})`,
  )
  const byOwner = new Map<number, number[]>(ownerIds.map((id) => [id, []]))
  for (const r of rows) byOwner.get(Number(r.owner))?.push(Number(r.role_id))
  return byOwner
}
