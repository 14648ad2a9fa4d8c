import { RECORD_TYPE_LABELS, type RecordType, type Resource } from '@amg/contract'
import type { AuditChange, AuditRef } from '../db/audit-schema'
import { ownerOfResource } from './changes'

/**
 * The record an operation is about, as the log shows it: its type and its name as it was then
 * (`用户 张三`), taken from the changes the write staged — the record's own row, or a link's record
 * named when the link changed — so a renamed or deleted record still reads as it was. Without a
 * name (a row that staged nothing: a refused write, a delete of nothing) it is the id: `用户 #12`.
 * Null when the route is about no record of its own (a sign-out, a forced sign-out) or names none.
 */
export function resourceName(
  resource: Resource | undefined,
  resourceId: string | null,
  changes: readonly AuditChange[],
): string | null {
  const type = resource && ownerOfResource(resource)
  if (!type) return null
  const label = RECORD_TYPE_LABELS[type]
  const targets = uniqueTargets(changes, type)
  if (resourceId !== null) {
    const named = targets.find((t) => String(t.id) === resourceId)
    return `${label} ${named?.name ?? `#${resourceId}`}`
  }
  // a batch (`ids: [...]`): the first record, and how many there were
  if (targets.length === 0) return null
  const first = targets[0]
  const more = targets.length > 1 ? ` 等 ${targets.length} 个` : ''
  return `${label} ${first.name ?? `#${first.id}`}${more}`
}

function uniqueTargets(changes: readonly AuditChange[], type: RecordType): AuditRef[] {
  const seen = new Map<string, AuditRef>()
  for (const change of changes) {
    const target = change.target
    if (target?.type === type && !seen.has(String(target.id))) seen.set(String(target.id), target)
  }
  return [...seen.values()]
}
