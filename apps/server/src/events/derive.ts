import { getTableColumns } from 'drizzle-orm'
import type { EventType } from '@amg/contract'
import type { StagedChange } from '../db/audit-schema'
import { linkOfTable, recordOfTable, type RecordTable } from '../db/tables'

/** One change event, before it is written (events/outbox.ts). */
export interface ChangeEventDraft {
  type: EventType
  payload: Record<string, unknown>
}

/**
 * Whose effective permissions a change may have changed, as the records it touched: the users named
 * directly, and the roles, groups, positions and permission nodes whose holders are affected. Turned
 * into user ids by one query (events/access.ts).
 */
export interface AccessTouch {
  userIds: Set<number>
  roleIds: Set<number>
  groupIds: Set<number>
  positionIds: Set<number>
  authCodes: Set<string>
}

export const emptyTouch = (): AccessTouch => ({
  userIds: new Set(),
  roleIds: new Set(),
  groupIds: new Set(),
  positionIds: new Set(),
  authCodes: new Set(),
})

export const touchesAccess = (t: AccessTouch) =>
  t.userIds.size + t.roleIds.size + t.groupIds.size + t.positionIds.size + t.authCodes.size > 0

/**
 * Bookkeeping columns: a row whose only change is one of these changed nothing a consumer hears of.
 * A password's time and its 下次登录须修改 mark change with the password, which is named `password`.
 */
const BOOKKEEPING = new Set([
  'update_time',
  'update_user_id',
  'failed_logins',
  'locked_until',
  'last_seen_time',
  'password_changed_at',
  'must_change_password',
  // where a record came from and its id there are set when a directory makes it and never change
  // after; SCIM's delete mark comes with the freeze, which consumers hear of as `status`
  'source',
  'external_id',
  'scim_deleted_at',
])

/**
 * A changed column as the API names the field (`real_name` → `realName`, the contract's schemas use
 * the table definitions' own names); the password's hash is the field `password` (never its value).
 */
const API_FIELD: Record<string, string> = { password_hash: 'password' }
const fieldNames = new Map<RecordTable, Map<string, string>>()
export function apiFieldName(record: RecordTable, column: string): string {
  let names = fieldNames.get(record)
  if (!names) {
    names = new Map(Object.entries(getTableColumns(record.table)).map(([field, c]) => [c.name, field]))
    fieldNames.set(record, names)
  }
  return API_FIELD[column] ?? names.get(column) ?? column
}

/** The record types that have events of their own, by the event's prefix. */
const RECORD_EVENTS: Record<string, 'user' | 'role' | 'group' | 'org' | 'position'> = {
  user: 'user',
  role: 'role',
  group: 'group',
  org: 'org',
  position: 'position',
}

const VERB = { INSERT: 'created', UPDATE: 'updated', DELETE: 'deleted' } as const

function changedColumns(row: StagedChange): string[] {
  const before = row.old ?? {}
  const after = row.new ?? {}
  return [...new Set([...Object.keys(before), ...Object.keys(after)])].filter(
    (c) => !BOOKKEEPING.has(c) && JSON.stringify(before[c] ?? null) !== JSON.stringify(after[c] ?? null),
  )
}

const num = (v: unknown) => Number(v)

/**
 * The events of one write, from the rows its audit triggers staged (migration 0007): one event per
 * record created, changed or deleted, one per link added or removed (with both ids), one
 * `permission.changed` naming every node touched; and what the change touched that decides access.
 */
export function deriveEvents(staged: readonly StagedChange[]): {
  drafts: ChangeEventDraft[]
  touch: AccessTouch
} {
  const drafts: ChangeEventDraft[] = []
  const touch = emptyTouch()
  const codes = new Set<string>()
  for (const row of staged) {
    const record = recordOfTable(row.table)
    if (record) {
      const data = (row.new ?? row.old)!
      const key = data[record.keyColumn.name]
      const columns = row.op === 'UPDATE' ? changedColumns(row) : null
      if (columns && columns.length === 0) continue
      if (record.type === 'auth') {
        codes.add(String(key))
        touch.authCodes.add(String(key))
        continue
      }
      const prefix = RECORD_EVENTS[record.type]
      if (prefix) {
        drafts.push({
          type: `${prefix}.${VERB[row.op]}` as EventType,
          payload: {
            id: num(key),
            ...(columns ? { fields: columns.map((c) => apiFieldName(record, c)) } : {}),
          },
        })
      }
      // what a record's change does to access: a user's status or deletion is theirs; a role's,
      // group's or position's reaches whoever holds it (a new one is held by no one yet)
      if (row.op === 'INSERT') continue
      if (record.type === 'user' && (row.op === 'DELETE' || columns!.includes('status')))
        touch.userIds.add(num(key))
      else if (record.type === 'role') touch.roleIds.add(num(key))
      else if (record.type === 'group') touch.groupIds.add(num(key))
      else if (record.type === 'position') touch.positionIds.add(num(key))
      continue
    }
    const link = linkOfTable(row.table)
    if (!link) continue
    const data = (row.new ?? row.old)!
    const payload: Record<string, unknown> = { link: `${link.sides[0].type}-${link.sides[1].type}` }
    for (const side of link.sides) {
      const value = data[side.column.name]
      payload[side.type === 'auth' ? 'authCode' : `${side.type}Id`] =
        side.type === 'auth' ? value : num(value)
    }
    drafts.push({ type: row.op === 'DELETE' ? 'link.unlinked' : 'link.linked', payload })
    // a link to a user changes that user's access; any other link changes its holders'
    const [a] = link.sides
    const userSide = link.sides.find((s) => s.type === 'user')
    if (userSide) touch.userIds.add(num(data[userSide.column.name]))
    else if (a.type === 'role') touch.roleIds.add(num(data[a.column.name]))
    else if (a.type === 'group') touch.groupIds.add(num(data[a.column.name]))
    else if (a.type === 'position') touch.positionIds.add(num(data[a.column.name]))
  }
  if (codes.size) drafts.push({ type: 'permission.changed', payload: { codes: [...codes].sort() } })
  return { drafts, touch }
}
