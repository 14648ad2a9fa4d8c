import { inArray } from 'drizzle-orm'
import { DATA_SCOPE, MSG, ROLE_TYPE, unknownScopeOrgs } from '@amg/contract'
import type { DbOrTx } from '../../db/connection'
import { auths } from '../../db/schema'
import { badRequest } from '../../lib/errors'
import { uniqueName } from '../../lib/name-free'
import { missingRecords } from '../links/existing'

/** What a role's name, permissions and data scope must be, checked inside the write's transaction. */

export const ROLE_MSG = {
  notFound: '角色不存在',
  nameExists: '角色名称已存在',
} as const

/** What each role screen refuses (SPEC.md §7), by the action refused. */
export const ROLE_REFUSAL = {
  update: {
    onlyOrdinary: '只能修改普通角色',
    superAdmin: '超级管理员角色不能修改',
    ordinary: '普通角色请在角色管理中修改',
  },
  delete: {
    onlyOrdinary: '只能删除普通角色',
    superAdmin: '超级管理员角色不能删除',
    ordinary: '普通角色请在角色管理中删除',
  },
} as const

export const unknownAuthCodes = (codes: string[]) => `权限不存在：${codes.join(', ')}`

export const trimmedOrNull = (v: string | null | undefined) =>
  v === undefined || v === null || v.trim() === '' ? null : v.trim()

/** Unique, trimmed codes that all exist in the tree; unknown ones are refused by name. */
export async function checkAuthCodes(tx: DbOrTx, input: readonly string[]): Promise<string[]> {
  const codes = [...new Set(input.map((c) => c.trim()).filter((c) => c !== ''))]
  if (!codes.length) return []
  const found = await tx.select({ code: auths.code }).from(auths).where(inArray(auths.code, codes))
  const known = new Set(found.map((f) => f.code))
  const missing = codes.filter((c) => !known.has(c))
  if (missing.length) throw badRequest(unknownAuthCodes(missing))
  return codes
}

export const { requireFree: checkNameFree, rethrow: onNameTaken } = uniqueName(
  'role',
  'roles_role_name',
  ROLE_MSG.nameExists,
)

/**
 * The scope a role will be stored with (DESIGN.md §13): 自定义部门 needs at least one department and
 * every one must exist (else 400, nothing changed); the other scopes keep no departments.
 */
export async function checkScope(
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
  const missing = await missingRecords(tx, 'org', orgIds)
  if (missing.length) throw badRequest(unknownScopeOrgs(missing))
  return { dataScope, orgIds }
}
