import { sql } from 'drizzle-orm'
import { queryRows, type Db } from '../../src/db/connection'

/** The tables a grant path can change; a refused change must leave every row as it was. */
const TABLES = [
  'users',
  'roles',
  'role_auths',
  'auths',
  'user_roles',
  'user_groups',
  'user_group_users',
  'user_group_roles',
  'organizations',
  'stations',
  'positions',
  'position_users',
  'position_roles',
]

/** Every row of those tables as text, in a stable order: compare two snapshots with toEqual. */
export async function accessSnapshot(db: Db): Promise<Record<string, string[]>> {
  const snapshot: Record<string, string[]> = {}
  for (const table of TABLES) {
    const rows = await queryRows<{ row: string }>(
      db,
      sql`select t::text as row from ${sql.identifier(table)} t order by 1`,
    )
    snapshot[table] = rows.map((r) => r.row)
  }
  return snapshot
}
