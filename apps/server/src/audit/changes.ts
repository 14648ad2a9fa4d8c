import type { RecordType, Resource } from '@amg/contract'
import type { AuditChange, AuditRef, StagedChange } from '../db/audit-schema'
import { linkOfTable, recordOfTable } from '../db/tables'

/** The record type a resource's routes are about: the side of a link the log entry belongs to. */
const OWNER_BY_RESOURCE: Partial<Record<Resource, RecordType>> = {
  user: 'user',
  // two-step sign-in is a user's (its rows name the user: modules/mfa/routes.ts)
  mfa: 'user',
  userGroup: 'group',
  position: 'position',
  role: 'role',
  auth: 'auth',
  org: 'org',
  station: 'station',
  service: 'service',
  file: 'file',
}

/** The record type a resource's routes are about, if any. */
export const ownerOfResource = (resource: Resource): RecordType | undefined => OWNER_BY_RESOURCE[resource]

/**
 * Bookkeeping columns that say nothing an auditor needs. Secrets never reach the stored rows (the
 * triggers drop them, and mark a set or changed password hash 已修改); the list is a second guard.
 */
const IGNORED = new Set([
  'create_time',
  'update_time',
  'create_user_id',
  'update_user_id',
  'failed_logins',
  'locked_until',
  // the password's own change shows as 已修改; when it happened is the row's time
  'password_changed_at',
])
const SECRET = new Set(['password_hash', 'token_hash', 'storage_name'])
export const SECRET_CHANGED = '已修改'

const camel = (column: string) => column.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)

/** The changes of one operation, from the row changes its triggers staged, each record named. */
export function describeChanges(
  staged: readonly StagedChange[],
  resource: Resource | undefined,
): AuditChange[] {
  const names = new NameBook(staged)
  const changes: AuditChange[] = []
  const links = new Map<string, { target: AuditRef; added: AuditRef[]; removed: AuditRef[] }>()
  const owner = resource && OWNER_BY_RESOURCE[resource]

  for (const row of staged) {
    const before = row.old ?? null
    const after = row.new ?? null
    const entity = recordOfTable(row.table)
    if (entity) {
      const record = after ?? before ?? {}
      const target = names.ref(entity.type, record[entity.keyColumn.name] as number | string)
      for (const column of new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])) {
        if (IGNORED.has(column)) continue
        const was = before?.[column] ?? null
        const is = after?.[column] ?? null
        if (row.op === 'UPDATE' ? same(was, is) : was === null && is === null) continue
        if (SECRET.has(column)) {
          if (column === 'password_hash')
            changes.push({ field: 'password', before: null, after: SECRET_CHANGED, target })
          continue
        }
        changes.push({ field: camel(column), before: was, after: is, target })
      }
      continue
    }
    const link = linkOfTable(row.table)
    if (!link) continue
    const record = (after ?? before)!
    const [a, b] = link.sides.map(({ type, column }) =>
      names.ref(type, record[column.name] as number | string, row.names?.[column.name]),
    )
    // the entry belongs to the side the route is about; the other side is what was linked
    const [target, item] = owner === link.sides[1].type ? [b, a] : [a, b]
    const key = `${target.type}:${target.id}`
    const entry = links.get(key) ?? { target, added: [], removed: [] }
    ;(row.op === 'DELETE' ? entry.removed : entry.added).push(item)
    links.set(key, entry)
  }
  for (const entry of links.values()) changes.push({ field: 'links', ...entry })
  return changes
}

/**
 * The names of the records an operation names: a record it created, changed or deleted carries its
 * own name in its staged row; a linked record's name was staged with the link.
 */
class NameBook {
  private readonly known = new Map<string, string | null>()

  constructor(staged: readonly StagedChange[]) {
    for (const row of staged) {
      const entity = recordOfTable(row.table)
      const record = row.new ?? row.old
      if (!entity || !record) continue
      const name = entity.nameColumn ? (record[entity.nameColumn.name] as string | null) : row.name
      this.known.set(`${entity.type}:${record[entity.keyColumn.name]}`, name ?? null)
    }
  }

  ref(type: RecordType, id: number | string, stagedName?: string | null): AuditRef {
    return { type, id, name: this.known.get(`${type}:${id}`) ?? stagedName ?? null }
  }
}
