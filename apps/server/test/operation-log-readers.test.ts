import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { desc, eq, sql } from 'drizzle-orm'
import { operationLogs } from '../src/db/audit-schema'
import { PERSONAL_MASK } from '../src/audit/personal-fields'
import { createTestApp, type TestApp } from './helpers/app'

/**
 * DESIGN.md §11 (security review): an operation-log reader sees a user's personal fields (mobile,
 * real name) only when it may read that user (the permission of GET /user/detail; a super admin
 * holds it), in the detail and in the export; and the log shows each operator's id beside the name,
 * with a filter by id, so two operators with look-alike names are told apart.
 */
let t: TestApp
let targetId: number
/** log rows that carry the target user's personal fields */
const personalRows: number[] = []
const MOBILES = ['13800000001', '13900000002']
const REAL_NAMES = ['张三丰', '李四光']

beforeAll(async () => {
  t = await createTestApp()
  const created = await t.call('POST', '/api/user/insert', {
    token: t.adminToken,
    body: { nickName: 'pf_target', mobile: MOBILES[0], realName: REAL_NAMES[0] },
  })
  expect(created.status).toBe(200)
  targetId = created.body.data
  personalRows.push(await newestRowId())
  const updated = await t.call('PUT', '/api/user/update', {
    token: t.adminToken,
    body: { id: targetId, nickName: 'pf_target2', status: 1, mobile: MOBILES[1], realName: REAL_NAMES[1] },
  })
  expect(updated.status).toBe(200)
  personalRows.push(await newestRowId())
})
afterAll(async () => t.close())

async function newestRowId(): Promise<number> {
  const [row] = await t.db
    .select({ id: operationLogs.id })
    .from(operationLogs)
    .orderBy(desc(operationLogs.id))
    .limit(1)
  return Number(row.id)
}

const detail = (token: string, id: number) =>
  t.call('GET', '/api/log/operation/detail', { token, query: { id } })

async function exportCsv(token: string, query = '') {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/log/operation/export${query}`,
    headers: { 'x-auth-token': token },
  })
  expect(res.statusCode).toBe(200)
  return res.rawPayload.toString('utf8')
}

const personalValues = [...MOBILES, ...REAL_NAMES]

describe('personal fields in the operation log', () => {
  it('a reader without the user-read permission sees them masked, in the detail and the export', async () => {
    const reader = await t.userWithCodes(['operlog', 'operlog:export'])
    for (const id of personalRows) {
      const res = await detail(reader.token, id)
      expect(res.status).toBe(200)
      const changes = res.body.data.changes as { field: string; before: unknown; after: unknown }[]
      for (const field of ['mobile', 'realName']) {
        const change = changes.find((c) => c.field === field)
        expect(change, field).toMatchObject({ before: PERSONAL_MASK, after: PERSONAL_MASK })
      }
      // what is not personal still shows: the name it was given
      expect(changes).toContainEqual(expect.objectContaining({ field: 'nickName' }))
      for (const value of personalValues) expect(res.raw).not.toContain(value)
    }
    const csv = await exportCsv(reader.token)
    for (const value of personalValues) expect(csv).not.toContain(value)
    expect(csv).toContain(PERSONAL_MASK)
    expect(csv).toContain('pf_target2')
  })

  it('the list carries no personal field for anyone', async () => {
    const reader = await t.userWithCodes(['operlog'])
    const list = await t.call('POST', '/api/log/operation/list', {
      token: reader.token,
      body: { pageSize: 200 },
    })
    expect(list.status).toBe(200)
    for (const value of personalValues) expect(list.raw).not.toContain(value)
  })

  it('a reader who may read users sees them, and so does a super admin', async () => {
    const reader = await t.userWithCodes(['operlog', 'operlog:export', 'user'])
    for (const token of [reader.token, t.adminToken]) {
      const created = await detail(token, personalRows[0])
      expect(created.body.data.changes).toContainEqual(
        expect.objectContaining({ field: 'mobile', before: null, after: MOBILES[0] }),
      )
      const updated = await detail(token, personalRows[1])
      expect(updated.body.data.changes).toContainEqual(
        expect.objectContaining({ field: 'mobile', before: MOBILES[0], after: MOBILES[1] }),
      )
      expect(updated.body.data.changes).toContainEqual(
        expect.objectContaining({ field: 'realName', before: REAL_NAMES[0], after: REAL_NAMES[1] }),
      )
      const csv = await exportCsv(token)
      for (const value of personalValues) expect(csv).toContain(value)
      expect(csv).not.toContain(PERSONAL_MASK)
    }
  })

  it('losing the user-read permission masks them again at once', async () => {
    const reader = await t.userWithCodes(['operlog', 'user'])
    expect((await detail(reader.token, personalRows[1])).raw).toContain(MOBILES[1])
    await t.db.execute(sql`delete from role_auths where role_id = ${reader.roleId} and auth_code = 'user'`)
    await t.app.ctx.authz.invalidate()
    const res = await detail(reader.token, personalRows[1])
    expect(res.status).toBe(200)
    expect(res.raw).not.toContain(MOBILES[1])
  })

  it('rows described before targets were kept are masked by their resource type', async () => {
    const stored = [
      { field: 'mobile', before: '13700000003', after: '13700000004' },
      { field: 'realName', before: '王五', after: '赵六' },
      { field: 'nickName', before: 'old', after: 'new' },
    ]
    const [{ id }] = await t.db
      .insert(operationLogs)
      .values({
        method: 'PUT',
        path: '/api/user/update',
        resourceType: '用户管理',
        result: 'success',
        status: 200,
        changes: stored,
      })
      .returning({ id: operationLogs.id })
    const reader = await t.userWithCodes(['operlog'])
    const res = await detail(reader.token, Number(id))
    expect(res.body.data.changes).toEqual([
      { field: 'mobile', before: PERSONAL_MASK, after: PERSONAL_MASK },
      { field: 'realName', before: PERSONAL_MASK, after: PERSONAL_MASK },
      { field: 'nickName', before: 'old', after: 'new' },
    ])
    expect((await detail(t.adminToken, Number(id))).body.data.changes).toEqual(stored)
    await t.db.execute(sql`delete from operation_logs where id = ${id}`)
  })

  it('a field of another record that happens to be called like a personal one is not masked', async () => {
    const [{ id }] = await t.db
      .insert(operationLogs)
      .values({
        method: 'PUT',
        path: '/api/x',
        resourceType: '角色管理',
        result: 'success',
        status: 200,
        changes: [{ field: 'realName', before: 'a', after: 'b', target: { type: 'role', id: 1, name: 'r' } }],
      })
      .returning({ id: operationLogs.id })
    const reader = await t.userWithCodes(['operlog'])
    expect((await detail(reader.token, Number(id))).body.data.changes[0]).toMatchObject({
      before: 'a',
      after: 'b',
    })
    await t.db.execute(sql`delete from operation_logs where id = ${id}`)
  })
})

describe('operator ids beside names', () => {
  it('two operators with similar names: the rows, the export and the filter tell them apart by id', async () => {
    const a = await t.userWithCodes(['role', 'role:add'], 'ops_lookalike')
    const b = await t.userWithCodes(['role', 'role:add'], 'ops_lookalike1')
    for (const [who, n] of [
      [a, 1],
      [b, 2],
    ] as const) {
      const res = await t.call('POST', '/api/role/insert', {
        token: who.token,
        body: { roleName: `ops_role_${n}` },
      })
      expect(res.status).toBe(200)
    }
    const byName = await t.call('POST', '/api/log/operation/list', {
      token: t.adminToken,
      body: { operatorName: 'ops_look' },
    })
    const rows = byName.body.data.list as { operatorId: number; operatorName: string }[]
    expect(rows.map((r) => [r.operatorId, r.operatorName]).sort()).toEqual(
      [
        [a.id, 'ops_lookalike'],
        [b.id, 'ops_lookalike1'],
      ].sort(),
    )
    const byId = await t.call('POST', '/api/log/operation/list', {
      token: t.adminToken,
      body: { operatorName: 'ops_look', operatorId: a.id },
    })
    expect(byId.body.data.list.map((r: { operatorId: number }) => r.operatorId)).toEqual([a.id])
    expect(byId.body.data.total).toBe(1)
    const csv = await exportCsv(t.adminToken, `?operatorId=${b.id}`)
    const lines = csv.slice(1).trim().split('\r\n')
    expect(lines).toHaveLength(2)
    const [header, line] = lines.map((l) => l.split(','))
    expect(line[header.indexOf('操作人')]).toBe('ops_lookalike1')
    expect(line[header.indexOf('操作人 ID')]).toBe(String(b.id))
  })

  it('a malformed operator id is refused', async () => {
    for (const operatorId of ['x', -1, 1.5, 2147483648]) {
      const res = await t.call('POST', '/api/log/operation/list', {
        token: t.adminToken,
        body: { operatorId },
      })
      expect(res.status, String(operatorId)).toBe(400)
    }
  })

  it('the detail carries the operator id', async () => {
    const [row] = await t.db
      .select()
      .from(operationLogs)
      .where(eq(operationLogs.operatorName, 'admin'))
      .limit(1)
    const res = await detail(t.adminToken, Number(row.id))
    expect(res.body.data).toMatchObject({ operatorId: row.operatorId, operatorName: 'admin' })
    expect(row.operatorId).toBeGreaterThan(0)
  })
})
