import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getTableColumns, getTableName, sql } from 'drizzle-orm'
import type { TObject } from '@sinclair/typebox'
import { OrgDetail, PositionRow, RoleRow, UserDetail, UserGroupListRow, UserUpdateBody } from '@amg/contract'
import { RECORDS } from '../src/db/tables'
import { deriveEvents } from '../src/events/derive'
import { queryRows } from '../src/db/connection'
import { createTestApp, type TestApp } from './helpers/app'

/**
 * Event payloads (DESIGN.md §17, docs/integration.md) speak the API's field names: an update's
 * `fields` are named as the contract's schemas name them (`realName`, never the column `real_name`).
 */

/** The record types with events of their own, and the schemas the API answers and takes them with. */
const SCHEMAS: Record<string, TObject[]> = {
  user: [UserDetail, UserUpdateBody],
  role: [RoleRow],
  group: [UserGroupListRow],
  position: [PositionRow],
  org: [OrgDetail],
}

const NEVER_UPDATED = new Set(['id', 'create_time', 'create_user_id'])

describe('an update event names its fields as the API does', () => {
  it('every column of every record with events, changed alone, is named by a field of its schemas', () => {
    for (const [type, schemas] of Object.entries(SCHEMAS)) {
      const record = RECORDS[type as keyof typeof RECORDS]
      const known = new Set(schemas.flatMap((s) => Object.keys(s.properties)))
      for (const column of Object.values(getTableColumns(record.table))) {
        // a record's id and its making: no update changes them
        if (NEVER_UPDATED.has(column.name)) continue
        const { drafts } = deriveEvents([
          {
            table: getTableName(record.table),
            op: 'UPDATE',
            old: { id: 1, [column.name]: 1 },
            new: { id: 1, [column.name]: 2 },
          },
        ])
        const event = drafts.find((d) => d.type === `${type}.updated`)
        // bookkeeping (times, counters) is no change a consumer hears of
        if (!event) continue
        const fields = event.payload.fields as string[]
        expect(fields, `${type}.${column.name}`).toHaveLength(1)
        expect(known.has(fields[0]), `${type}.${column.name} → ${fields[0]}`).toBe(true)
      }
    }
  })

  it('names a password change `password`, with its time and mark folded into it', () => {
    const { drafts } = deriveEvents([
      {
        table: 'users',
        op: 'UPDATE',
        old: {
          id: 7,
          real_name: '甲',
          password_hash: 'a',
          password_changed_at: 't1',
          must_change_password: 0,
        },
        new: {
          id: 7,
          real_name: '乙',
          password_hash: 'b',
          password_changed_at: 't2',
          must_change_password: 1,
        },
      },
    ])
    expect(drafts).toEqual([{ type: 'user.updated', payload: { id: 7, fields: ['realName', 'password'] } }])
  })
})

describe('GET /api/events after a user update', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp()
  })
  afterAll(async () => t.close())

  it('answers fields as the update call names them', async () => {
    const insert = await t.call<number>('POST', '/api/user/insert', {
      token: t.adminToken,
      body: { nickName: 'event_fields_a' },
    })
    expect(insert.status, insert.body.msg).toBe(200)
    const id = insert.body.data
    const [last] = await queryRows<{ id: number }>(
      t.db,
      sql`select coalesce(max(id), 0)::int as id from events`,
    )
    const update = await t.call('PUT', '/api/user/update', {
      token: t.adminToken,
      body: { id, nickName: 'event_fields_a', status: 1, realName: '张三', mobile: '13800138000' },
    })
    expect(update.status, update.body.msg).toBe(200)
    const pulled = await t.call('GET', '/api/events', {
      token: t.adminToken,
      query: { after: last.id, types: 'user.updated' },
    })
    expect(pulled.status).toBe(200)
    const event = pulled.body.data.list.find((e: { payload: { id: number } }) => e.payload.id === id)
    expect(event.payload.fields.sort()).toEqual(['mobile', 'realName'])
  })
})
