import { sql } from 'drizzle-orm'
import { queryRows, type DbOrTx } from '../db/connection'
import type { AuditChange, AuditRef } from '../db/audit-schema'

/** A row change staged by the audit trigger in the request's transaction. */
export interface StagedChange {
  tableName: string
  op: 'INSERT' | 'UPDATE' | 'DELETE'
  oldRow: Record<string, unknown> | null
  newRow: Record<string, unknown> | null
}

type EntityType = 'user' | 'role' | 'group' | 'position' | 'auth' | 'org' | 'station' | 'file'

/** Tables of records: their type in the log, key column and name column. */
const ENTITIES: Record<string, { type: EntityType; key: string; name: string | null }> = {
  users: { type: 'user', key: 'id', name: 'nick_name' },
  roles: { type: 'role', key: 'id', name: 'role_name' },
  user_groups: { type: 'group', key: 'id', name: 'group_name' },
  positions: { type: 'position', key: 'id', name: null },
  auths: { type: 'auth', key: 'code', name: 'ch_name' },
  organizations: { type: 'org', key: 'id', name: 'organization_name' },
  stations: { type: 'station', key: 'id', name: 'station_name' },
  files: { type: 'file', key: 'id', name: 'file_name' },
}

/** Link tables: the two sides, each an entity type and its column. */
const LINKS: Record<string, [EntityType, string, EntityType, string]> = {
  user_roles: ['user', 'user_id', 'role', 'role_id'],
  user_group_users: ['group', 'group_id', 'user', 'user_id'],
  user_group_roles: ['group', 'group_id', 'role', 'role_id'],
  position_users: ['position', 'position_id', 'user', 'user_id'],
  position_roles: ['position', 'position_id', 'role', 'role_id'],
  role_auths: ['role', 'role_id', 'auth', 'auth_code'],
}

/** The record type a route's tag is about: the side of a link the log entry belongs to. */
const OWNER_BY_TAG: Record<string, EntityType> = {
  用户管理: 'user',
  用户组管理: 'group',
  岗位管理: 'position',
  角色管理: 'role',
  权限管理: 'auth',
  部门管理: 'org',
  职位管理: 'station',
}

/** Bookkeeping columns that say nothing an auditor needs; secrets are shown only as changed. */
const IGNORED = new Set([
  'create_time',
  'update_time',
  'create_user_id',
  'update_user_id',
  'failed_logins',
  'locked_until',
])
const SECRET = new Set(['password_hash', 'token_hash', 'storage_name'])
export const SECRET_CHANGED = '已修改'

const camel = (column: string) => column.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)

/** The changes of one request, from its staged row changes, with the names of every record named. */
export async function describeChanges(
  tx: DbOrTx,
  staged: StagedChange[],
  resourceType: string | null,
): Promise<AuditChange[]> {
  const names = new NameBook()
  const changes: AuditChange[] = []
  const links = new Map<string, { target: AuditRef; added: AuditRef[]; removed: AuditRef[] }>()
  for (const row of staged) names.learn(row)
  const owner = resourceType ? OWNER_BY_TAG[resourceType] : undefined

  for (const row of staged) {
    const entity = ENTITIES[row.tableName]
    if (entity) {
      const record = row.newRow ?? row.oldRow ?? {}
      const target = names.ref(entity.type, record[entity.key] as number | string)
      for (const column of new Set([...Object.keys(row.oldRow ?? {}), ...Object.keys(row.newRow ?? {})])) {
        if (IGNORED.has(column)) continue
        const before = row.oldRow?.[column] ?? null
        const after = row.newRow?.[column] ?? null
        if (row.op === 'UPDATE' ? same(before, after) : before === null && after === null) continue
        if (SECRET.has(column)) {
          if (column === 'password_hash')
            changes.push({ field: 'password', before: null, after: SECRET_CHANGED, target })
          continue
        }
        changes.push({ field: camel(column), before, after, target })
      }
      continue
    }
    const link = LINKS[row.tableName]
    if (!link) continue
    const [typeA, columnA, typeB, columnB] = link
    const record = (row.newRow ?? row.oldRow)!
    const a = names.ref(typeA, record[columnA] as number | string)
    const b = names.ref(typeB, record[columnB] as number | string)
    // the entry belongs to the side the route is about; the other side is what was linked
    const [target, item] = owner === typeB ? [b, a] : [a, b]
    const key = `${target.type}:${target.id}`
    const entry = links.get(key) ?? { target, added: [], removed: [] }
    ;(row.op === 'DELETE' ? entry.removed : entry.added).push(item)
    links.set(key, entry)
  }
  for (const entry of links.values()) changes.push({ field: 'links', ...entry })
  await names.resolve(tx)
  return changes
}

/** Collects the records a change names, then fills in their names with one query per type. */
class NameBook {
  private readonly known = new Map<string, string | null>()
  private readonly refs: AuditRef[] = []

  /** Names of records the request created, changed or deleted are in the staged rows themselves. */
  learn(row: StagedChange) {
    const entity = ENTITIES[row.tableName]
    if (!entity || !entity.name) return
    const record = row.newRow ?? row.oldRow
    if (record)
      this.known.set(`${entity.type}:${record[entity.key]}`, (record[entity.name] as string) ?? null)
  }

  ref(type: EntityType, id: number | string): AuditRef {
    const ref: AuditRef = { type, id, name: this.known.get(`${type}:${id}`) ?? null }
    this.refs.push(ref)
    return ref
  }

  async resolve(tx: DbOrTx) {
    const missing = this.refs.filter((r) => r.name === null)
    const byType = new Map<EntityType, Set<number | string>>()
    for (const r of missing) {
      const set = byType.get(r.type as EntityType) ?? new Set()
      set.add(r.id)
      byType.set(r.type as EntityType, set)
    }
    for (const [type, ids] of byType) {
      const found = await lookUpNames(tx, type, [...ids])
      for (const r of missing) if (r.type === type) r.name = found.get(String(r.id)) ?? null
    }
  }
}

async function lookUpNames(
  tx: DbOrTx,
  type: EntityType,
  ids: (number | string)[],
): Promise<Map<string, string>> {
  const list = sql.join(
    ids.map((id) => sql`${String(id)}`),
    sql`, `,
  )
  const query =
    type === 'position'
      ? sql`select p.id::text as id, o.organization_name || '-' || s.station_name as name from positions p
          join organizations o on o.id = p.org_id join stations s on s.id = p.station_id where p.id::text in (${list})`
      : (() => {
          const [table, entity] = Object.entries(ENTITIES).find(([, e]) => e.type === type)!
          return sql`select ${sql.identifier(entity.key)}::text as id, ${sql.identifier(entity.name!)} as name
            from ${sql.identifier(table)} where ${sql.identifier(entity.key)}::text in (${list})`
        })()
  const rows = await queryRows<{ id: string; name: string }>(tx, query)
  return new Map(rows.map((r) => [r.id, r.name]))
}
