import { inArray } from 'drizzle-orm'
import { ACCESS_MSG } from '@amg/contract'
import type { DbOrTx } from '../../db/connection'
import { roles } from '../../db/schema'
import { badRequest } from '../../lib/errors'

/**
 * A role's request settings (DESIGN.md §20), as given: only the fields the call names (an update
 * leaves the others as stored). Approver roles must exist; they give no power (an approver still
 * needs the power to link the role), so naming them needs none.
 */
export async function checkRequestFields(
  tx: DbOrTx,
  input: { requestable?: boolean; requestApprovals?: number; approverRoleIds?: number[] },
): Promise<{ requestable?: boolean; requestApprovals?: number; approverRoleIds?: number[] }> {
  const out: { requestable?: boolean; requestApprovals?: number; approverRoleIds?: number[] } = {}
  if (input.requestable !== undefined) out.requestable = input.requestable
  if (input.requestApprovals !== undefined) {
    if (input.requestApprovals !== 1 && input.requestApprovals !== 2)
      throw badRequest(ACCESS_MSG.requestApprovalsInvalid)
    out.requestApprovals = input.requestApprovals
  }
  if (input.approverRoleIds !== undefined) {
    const ids = [...new Set(input.approverRoleIds)].sort((a, b) => a - b)
    if (ids.length) {
      const found = await tx.select({ id: roles.id }).from(roles).where(inArray(roles.id, ids))
      if (found.length !== ids.length) throw badRequest(ACCESS_MSG.approverRolesInvalid)
    }
    out.approverRoleIds = ids
  }
  return out
}
