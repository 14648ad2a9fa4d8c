import { RECORD_TYPE_LABELS, USER_STATUS, type RecordType } from '@amg/contract'
import type { AuditChange } from '../db/audit-schema'

/**
 * The operation log's name for what a write did (DESIGN.md §9), the one place it is decided: the
 * route's summary, made precise from what the write changed when the route does several things. An
 * update or an enable route whose only change is the status names the status it set (冻结用户,
 * 启用用户, 禁用用户组, 启用岗位 …); a user update whose only change is the password is 重置密码.
 * Any other write keeps its route's summary (新建用户, 修改用户 for an edit of several fields,
 * 用户关联角色 …). The name is stored with the row, so the list's filter by 操作 matches it exactly.
 */

/** The route summaries whose calls may be named more precisely: the record they are about follows. */
const RENAMED_PREFIXES = ['启用/禁用', '修改'] as const

/** The record a renameable summary is about (修改普通角色 → 普通角色), else null: the summary stands. */
function objectOf(summary: string): string | null {
  const prefix = RENAMED_PREFIXES.find((p) => summary.startsWith(p))
  return prefix ? summary.slice(prefix.length) : null
}

/** Whether a route's calls may be renamed, so the write reads its changes before its row is written. */
export const mayRename = (summary: string | null): summary is string =>
  summary !== null && objectOf(summary) !== null

const PASSWORD_FIELDS: ReadonlySet<string> = new Set(['password', 'passwordIsInitial'])

type FieldChange = Extract<AuditChange, { before: unknown }>
const isField = (change: AuditChange): change is FieldChange => change.field !== 'links'

export function actionName(summary: string | null, changes: readonly AuditChange[]): string | null {
  if (!summary) return summary
  const object = objectOf(summary)
  if (object === null || changes.length === 0 || !changes.every(isField)) return summary
  const fields = changes as readonly FieldChange[]

  if (fields.every((c) => c.field === 'status')) {
    const statuses = new Set(fields.map((c) => Number(c.after)))
    if (statuses.size !== 1) return summary
    const status = [...statuses][0]
    const isUser = object === RECORD_TYPE_LABELS.user
    // users are 正常 or 冻结 (USER_STATUS); every other record 启用 or 禁用 (STATUS), with the same values
    if (status === USER_STATUS.active) return `启用${object}`
    if (status === USER_STATUS.frozen) return isUser ? '冻结用户' : `禁用${object}`
    return summary
  }
  // a password set goes with the mark of whether it is still the initial one
  const userType: RecordType = 'user'
  if (
    object === RECORD_TYPE_LABELS.user &&
    fields.some((c) => c.field === 'password') &&
    fields.every((c) => PASSWORD_FIELDS.has(c.field) && (!c.target || c.target.type === userType))
  )
    return '重置密码'
  return summary
}
