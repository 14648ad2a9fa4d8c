import { sql } from 'drizzle-orm'
import { MSG, ROLE_TYPE } from '@amg/contract'
import { queryRows, type DbOrTx } from '../../db/connection'
import { intArray } from '../../db/sql-arrays'
import { forbidden } from '../../lib/errors'

/** What a row gives a user: the roles it names, and the positions and groups whose roles come with them. */
export interface RowGrants {
  roleIds: readonly number[]
  positionIds: readonly number[]
  groupIds: readonly number[]
}

/**
 * A spreadsheet row that would make someone 超级管理员 goes in only when the import was started with
 * 允许导入超级管理员 (`allowSuperAdmin`): a stray cell must not hand out all power unnoticed. Any
 * super-admin role counts, named or carried by a position or group, enabled or not (stored power,
 * DESIGN.md §6a). With the option on, the power check that follows still lets only a super admin grant
 * it. One query.
 */
export async function requireSuperAdminAllowed(
  db: DbOrTx,
  allowSuperAdmin: boolean,
  grants: RowGrants,
): Promise<void> {
  if (allowSuperAdmin) return
  const { roleIds, positionIds, groupIds } = grants
  if (roleIds.length + positionIds.length + groupIds.length === 0) return
  const [row] = await queryRows<{ gives: boolean }>(
    db,
    sql`select exists (
      select 1 from roles r
       where r.type = ${ROLE_TYPE.superAdmin}
         and (r.id = any(${intArray([...roleIds])})
           or r.id in (select role_id from position_roles where position_id = any(${intArray([...positionIds])}))
           or r.id in (select role_id from user_group_roles where group_id = any(${intArray([...groupIds])})))
    ) as gives`,
  )
  if (row?.gives) throw forbidden(MSG.importSuperAdminNotAllowed)
}
