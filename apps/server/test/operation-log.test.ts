import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { asc, desc, eq, sql } from 'drizzle-orm'
import { anonymousRefusalsMsg, MSG } from '@amg/contract'
import { AnonymousRefusals, MAX_SOURCES_PER_MINUTE, sourceOf } from '../src/audit/anonymous-refusals'
import { operationLogs, type AuditChange } from '../src/db/audit-schema'
import { queryRows } from '../src/db/connection'
import { sweepLogs } from '../src/modules/log/index'
import { createTestApp, type CallOptions, type TestApp } from './helpers/app'

/**
 * DESIGN.md §9: a row for every write that succeeds (with what it changed) and for every write
 * refused with 401/403/409; reads leave none; the list, detail and export answer them.
 */
let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(async () => t.close())

const admin = (method: string, url: string, opts: CallOptions = {}) =>
  t.call(method, url, {
    ...opts,
    token: t.adminToken,
    headers: { 'user-agent': 'vitest-agent', ...opts.headers },
  })

/** The newest row as stored, with its changes as the detail call shows them. */
async function lastRow() {
  const [row] = await t.db.select().from(operationLogs).orderBy(desc(operationLogs.id)).limit(1)
  const detail = await admin('GET', '/api/log/operation/detail', { query: { id: row.id } })
  expect(detail.status).toBe(200)
  return { ...row, changes: detail.body.data.changes as AuditChange[] }
}
const rowCount = async () => (await t.db.select({ id: operationLogs.id }).from(operationLogs)).length

describe('rows for writes', () => {
  it('a created user: operator, address, agent, route, resource id and the new fields', async () => {
    const res = await admin('POST', '/api/user/insert', {
      body: { nickName: 'audit_new', realName: '审计', password: 'Audit@Pass20261' },
    })
    expect(res.status).toBe(200)
    const row = await lastRow()
    expect(row).toMatchObject({
      operatorName: 'admin',
      userAgent: 'vitest-agent',
      method: 'POST',
      path: '/api/user/insert',
      summary: '新建用户',
      resourceType: '用户管理',
      resourceId: String(res.body.data),
      result: 'success',
      status: 200,
      msg: '创建成功',
    })
    expect(row.ip).toBeTruthy()
    expect(row.changes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: 'nickName', before: null, after: 'audit_new' }),
        expect.objectContaining({ field: 'realName', before: null, after: '审计' }),
        {
          field: 'password',
          before: null,
          after: '已修改',
          target: { type: 'user', id: res.body.data, name: 'audit_new' },
        },
      ]),
    )
  })

  it('an update: only the changed fields, before and after; a password only as 已修改', async () => {
    const id = (await admin('POST', '/api/user/insert', { body: { nickName: 'audit_edit', realName: '甲' } }))
      .body.data
    const res = await admin('PUT', '/api/user/update', {
      body: { id, nickName: 'audit_edit', realName: '乙', status: 1, password: 'Changed@Pass2026' },
    })
    expect(res.status).toBe(200)
    const row = await lastRow()
    expect(row.summary).toBe('修改用户')
    expect(row.resourceId).toBe(String(id))
    const fields = row.changes.map((c) => c.field).sort()
    expect(fields).toEqual(['password', 'passwordIsInitial', 'realName'])
    expect(row.changes).toContainEqual(
      expect.objectContaining({ field: 'realName', before: '甲', after: '乙' }),
    )
    expect(row.changes).toContainEqual(expect.objectContaining({ field: 'password', after: '已修改' }))
  })

  it('links added and removed, each with its name', async () => {
    const userId = (await admin('POST', '/api/user/insert', { body: { nickName: 'audit_links' } })).body.data
    const roleId = (
      await admin('POST', '/api/role/insert', { body: { roleName: '审计角色', authCodes: ['user'] } })
    ).body.data
    await admin('PUT', '/api/rel/user-rel-role', { body: { id: userId, roleIds: String(roleId) } })
    const linked = await lastRow()
    expect(linked.changes).toEqual([
      {
        field: 'links',
        target: { type: 'user', id: userId, name: 'audit_links' },
        added: [{ type: 'role', id: roleId, name: '审计角色' }],
        removed: [],
      },
    ])
    await admin('PUT', '/api/rel/user-un-rel-role', { body: { userId, roleId } })
    const unlinked = await lastRow()
    expect(unlinked.changes).toEqual([
      {
        field: 'links',
        target: { type: 'user', id: userId, name: 'audit_links' },
        added: [],
        removed: [{ type: 'role', id: roleId, name: '审计角色' }],
      },
    ])
  })

  it('positions are named by department and job title, also when made in the same request', async () => {
    const [root] = (await admin('GET', '/api/org/tree')).body.data as { id: number }[]
    const orgId = (
      await admin('POST', '/api/org/insert', { body: { organizationName: '审计部', parent: root.id } })
    ).body.data
    const station = await admin('POST', '/api/station/insert', {
      body: { stationName: '审计员', type: 1, orgIds: String(orgId) },
    })
    expect(station.status, station.body.msg).toBe(200)
    const [{ id: positionId }] = await queryRows<{ id: number }>(
      t.db,
      sql`select id from positions where station_id = ${station.body.data}`,
    )
    const position = { type: 'position', id: positionId, name: '审计部-审计员' }
    expect((await lastRow()).changes).toContainEqual(
      expect.objectContaining({ field: 'orgId', before: null, after: orgId, target: position }),
    )

    const userId = (await admin('POST', '/api/user/insert', { body: { nickName: 'audit_holder' } })).body.data
    await admin('PUT', '/api/rel/position-rel-user', { body: { positionId, userIds: String(userId) } })
    expect((await lastRow()).changes).toEqual([
      {
        field: 'links',
        target: position,
        added: [{ type: 'user', id: userId, name: 'audit_holder' }],
        removed: [],
      },
    ])
  })

  it('no password or hash anywhere in the log', async () => {
    await admin('POST', '/api/user/insert', {
      body: { nickName: 'audit_secret', password: 'Secret@Pass20261' },
    })
    const [{ text }] = await queryRows<{ text: string }>(
      t.db,
      sql`select coalesce(string_agg(x::text, '|'), '') as text from operation_logs x`,
    )
    expect(text).not.toContain('scrypt$')
    expect(text).not.toContain('Secret@Pass20261')
    expect(text).not.toContain('passwordHash')
  })

  it('reads, even those sent as POST, leave no row', async () => {
    const before = await rowCount()
    await admin('POST', '/api/user/list', { body: {} })
    await admin('POST', '/api/role/listall', { body: {} })
    await admin('GET', '/api/user/current')
    await admin('POST', '/api/log/operation/list', { body: {} })
    expect(await rowCount()).toBe(before)
  })
})

describe('changes made outside any request', () => {
  it('are never part of the next request’s row', async () => {
    const [{ id: roleId }] = await queryRows<{ id: number }>(
      t.db,
      sql`insert into roles (role_name, type, status) values ('outside_role', 3, 1) returning id`,
    )
    const res = await admin('POST', '/api/user/insert', { body: { nickName: 'audit_after_outside' } })
    expect(res.status).toBe(200)
    const row = await lastRow()
    expect(JSON.stringify(row.changes)).not.toContain('outside_role')
    expect(JSON.stringify(row.changes)).toContain('audit_after_outside')
    await t.db.execute(sql`delete from roles where id = ${roleId}`)
  })
})

describe('rows for refused writes', () => {
  it('403 and 409 are recorded as denied, with nothing changed; 401 too', async () => {
    const weak = await t.userWithCodes(['user'], 'audit_weak')
    const denied = await t.call('POST', '/api/user/insert', { token: weak.token, body: { nickName: 'nope' } })
    expect(denied.status).toBe(403)
    expect(await lastRow()).toMatchObject({
      operatorName: 'audit_weak',
      path: '/api/user/insert',
      result: 'denied',
      status: 403,
      msg: '没有权限执行此操作',
      changes: [],
    })
    const duplicate = await admin('POST', '/api/user/insert', { body: { nickName: 'admin' } })
    expect(duplicate.status).toBe(409)
    expect(await lastRow()).toMatchObject({ result: 'denied', status: 409, msg: duplicate.body.msg })
    const anonymous = await t.call('DELETE', '/api/user/delete', {
      query: { userId: 1 },
      remoteAddress: '192.0.2.77',
    })
    expect(anonymous.status).toBe(401)
    expect(await lastRow()).toMatchObject({
      result: 'denied',
      status: 401,
      operatorId: null,
      ip: '192.0.2.77',
      msg: anonymousRefusalsMsg(MSG.unauthorized, 1),
    })
  })

  it('a 400 (bad input) is not a security event and leaves no row', async () => {
    const before = await rowCount()
    expect((await admin('POST', '/api/user/insert', { body: {} })).status).toBe(400)
    expect(await rowCount()).toBe(before)
  })
})

describe('POST /log/operation/list, GET /log/operation/detail', () => {
  it('newest first, filtered by operator, resource, summary, result and time, paged', async () => {
    const all = await admin('POST', '/api/log/operation/list', { body: { pageSize: 200 } })
    expect(all.status).toBe(200)
    const ids = all.body.data.list.map((r: { id: number }) => r.id)
    expect(ids).toEqual([...ids].sort((a, b) => b - a))
    expect(all.body.data.total).toBe(await rowCount())
    expect(all.body.data.list[0]).not.toHaveProperty('changes')
    const denied = await admin('POST', '/api/log/operation/list', { body: { result: 'denied' } })
    expect(denied.body.data.list.every((r: { result: string }) => r.result === 'denied')).toBe(true)
    expect(denied.body.data.total).toBeGreaterThanOrEqual(3)
    const byOperator = await admin('POST', '/api/log/operation/list', { body: { operatorName: 'audit_we' } })
    expect(byOperator.body.data.list.map((r: { operatorName: string }) => r.operatorName)).toEqual([
      'audit_weak',
    ])
    const byResource = await admin('POST', '/api/log/operation/list', { body: { resourceType: '角色管理' } })
    expect(
      byResource.body.data.list.every((r: { resourceType: string }) => r.resourceType === '角色管理'),
    ).toBe(true)
    const bySummary = await admin('POST', '/api/log/operation/list', { body: { summary: '修改用户' } })
    expect(bySummary.body.data.total).toBe(1)
    const future = await admin('POST', '/api/log/operation/list', { body: { from: '2999-01-01T00:00:00Z' } })
    expect(future.body.data).toEqual({
      list: [],
      total: 0,
      totalIsEstimate: false,
      timeZone: expect.any(String),
    })
    const past = await admin('POST', '/api/log/operation/list', { body: { to: '2000-01-01T00:00:00Z' } })
    expect(past.body.data.total).toBe(0)
    const page2 = await admin('POST', '/api/log/operation/list', { body: { pageNum: 2, pageSize: 2 } })
    expect(page2.body.data.list.map((r: { id: number }) => r.id)).toEqual(ids.slice(2, 4))
    const beyond = await admin('POST', '/api/log/operation/list', { body: { pageNum: 9999, pageSize: 200 } })
    expect(beyond.body.data.list).toEqual([])
    expect((await admin('POST', '/api/log/operation/list', { body: { from: 'yesterday' } })).status).toBe(400)
    expect((await admin('POST', '/api/log/operation/list', { body: { result: 'maybe' } })).status).toBe(400)
  })

  it('detail answers one row with its changes; unknown ids 404', async () => {
    const [row] = await t.db.select().from(operationLogs).where(eq(operationLogs.summary, '修改用户'))
    const res = await admin('GET', '/api/log/operation/detail', { query: { id: row.id } })
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({ id: row.id, summary: '修改用户' })
    expect(res.body.data.changes).toContainEqual(
      expect.objectContaining({ field: 'password', after: '已修改' }),
    )
    expect((await admin('GET', '/api/log/operation/detail', { query: { id: 987654 } })).status).toBe(404)
  })

  it('rows stored with their changes already described (before the triggers staged rows) read as stored', async () => {
    const stored = [
      { field: 'roleName', before: '旧', after: '新', target: { type: 'role', id: 1, name: '新' } },
    ]
    const [{ id }] = await t.db
      .insert(operationLogs)
      .values({ method: 'POST', path: '/api/role/update', result: 'success', status: 200, changes: stored })
      .returning({ id: operationLogs.id })
    const res = await admin('GET', '/api/log/operation/detail', { query: { id } })
    expect(res.body.data.changes).toEqual(stored)
    await t.db.execute(sql`delete from operation_logs where id = ${id}`)
  })

  it('rows written under a former group name (服务管理) belong to it still: filtered and described alike', async () => {
    const made = await admin('POST', '/api/service/insert', { body: { key: 'renamed-grp', name: '改名前' } })
    expect(made.status).toBe(200)
    const current = await lastRow()
    expect(current.resourceType).toBe('应用管理')
    const [{ id: oldId }] = await t.db
      .insert(operationLogs)
      .values({
        method: 'POST',
        path: '/api/service/insert',
        summary: '新建服务',
        resourceType: '服务管理',
        resourceId: current.resourceId,
        result: 'success',
        status: 200,
        rowChanges: current.rowChanges,
      })
      .returning({ id: operationLogs.id })
    try {
      for (const group of ['应用管理', '服务管理']) {
        const list = await admin('POST', '/api/log/operation/list', {
          body: { resourceType: group, pageSize: 200 },
        })
        const ids = list.body.data.list.map((r: { id: number }) => r.id)
        expect(ids).toEqual(expect.arrayContaining([current.id, oldId]))
      }
      const old = await admin('GET', '/api/log/operation/detail', { query: { id: oldId } })
      expect(old.body.data.changes).toEqual(current.changes)
      expect(old.body.data.changes).toContainEqual(expect.objectContaining({ after: '改名前' }))
      // another group's filter does not take them in
      const roles = await admin('POST', '/api/log/operation/list', {
        body: { resourceType: '角色管理', pageSize: 200 },
      })
      expect(roles.body.data.list.map((r: { id: number }) => r.id)).not.toContain(oldId)
    } finally {
      await t.db.execute(sql`delete from operation_logs where id = ${oldId}`)
    }
  })

  it('no route edits or deletes a row', async () => {
    for (const method of ['PUT', 'DELETE', 'PATCH']) {
      expect((await admin(method, '/api/log/operation/detail', { query: { id: 1 } })).status).toBe(404)
    }
  })
})

describe('GET /log/operation/export', () => {
  it('CSV, UTF-8 with a BOM, Chinese headers, the filtered rows', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/log/operation/export?result=denied',
      headers: { 'x-auth-token': t.adminToken },
    })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toContain('text/csv')
    expect(res.headers['content-disposition']).toContain('attachment')
    const raw = res.rawPayload
    expect([...raw.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
    const lines = raw.toString('utf8').slice(1).trim().split('\r\n')
    expect(lines[0]).toBe(
      '编号,时间,操作人,操作人 ID,IP 地址,浏览器,请求方法,请求路径,操作,资源类型,资源 ID,资源,结果,状态码,消息,变更',
    )
    const denied = await admin('POST', '/api/log/operation/list', {
      body: { result: 'denied', pageSize: 200 },
    })
    expect(lines.length - 1).toBe(denied.body.data.total)
    expect(lines.slice(1).every((l) => l.includes(',拒绝,'))).toBe(true)
  })
})

describe('who may read the log', () => {
  it('403 without the log permissions, 200 with them', async () => {
    const other = await t.userWithCodes(['user'], 'audit_reader_no')
    expect((await t.call('POST', '/api/log/operation/list', { token: other.token, body: {} })).status).toBe(
      403,
    )
    expect((await t.call('POST', '/api/log/login/list', { token: other.token, body: {} })).status).toBe(403)
    const export403 = await t.call('GET', '/api/log/operation/export', { token: other.token })
    expect(export403.status).toBe(403)
    const reader = await t.userWithCodes(['operlog', 'operlog:export', 'loginlog'], 'audit_reader')
    expect((await t.call('POST', '/api/log/operation/list', { token: reader.token, body: {} })).status).toBe(
      200,
    )
    expect((await t.call('POST', '/api/log/login/list', { token: reader.token, body: {} })).status).toBe(200)
    expect((await t.call('GET', '/api/log/operation/export', { token: reader.token })).status).toBe(200)
  })
})

describe('totals at scale', () => {
  it('counted exactly up to 10,000 matches, estimated (and said so) past it', async () => {
    const exact = await admin('POST', '/api/log/operation/list', { body: {} })
    expect(exact.body.data.totalIsEstimate).toBe(false)
    await t.db.execute(sql`insert into operation_logs (time, method, path, summary, result, status)
      select now() - (g * interval '1 second'), 'PUT', '/api/bulk', '批量', 'success', 200
      from generate_series(1, 10050) g`)
    await t.db.execute(sql`analyze operation_logs`)
    const big = await admin('POST', '/api/log/operation/list', { body: {} })
    expect(big.body.data.totalIsEstimate).toBe(true)
    expect(big.body.data.total).toBeGreaterThan(10_000)
    expect(big.body.data.list).toHaveLength(10)
    const filtered = await admin('POST', '/api/log/operation/list', { body: { result: 'denied' } })
    expect(filtered.body.data.totalIsEstimate).toBe(false)
    const bulk = await admin('POST', '/api/log/operation/list', { body: { summary: '批量' } })
    expect(bulk.body.data.totalIsEstimate).toBe(true)
    await t.db.execute(sql`delete from operation_logs where path = '/api/bulk'`)
  })
})

describe('retention', () => {
  it('sweeps rows older than AUDIT_RETENTION_DAYS and keeps the rest', async () => {
    const before = await rowCount()
    await t.db.insert(operationLogs).values({
      time: new Date(Date.now() - 400 * 86_400_000),
      method: 'PUT',
      path: '/api/old',
      result: 'success',
      status: 200,
    })
    expect(await sweepLogs(t.db, 365)).toBe(1)
    expect(await rowCount()).toBe(before)
  })
})

describe('anonymous refusals: one row per source and minute (DESIGN.md §11)', () => {
  const rowsFrom = (ip: string) =>
    t.db.select().from(operationLogs).where(eq(operationLogs.ip, ip)).orderBy(asc(operationLogs.id))
  const anonymousWrite = (i: number, remoteAddress: string, userAgent = 'flood/1.0') => {
    const calls: [string, string, CallOptions][] = [
      ['PUT', '/api/user/update', { body: { id: 1, nickName: 'x', status: 1 } }],
      ['POST', '/api/user/insert', { body: { nickName: `flood_${i}` } }],
      ['DELETE', '/api/user/delete', { query: { userId: 1 } }],
      ['POST', '/api/role/insert', { body: { roleName: 'r' } }],
    ]
    const [method, url, opts] = calls[i % calls.length]
    // half of them with a token that names no session: no less anonymous
    const headers = { 'user-agent': userAgent, ...(i % 2 ? { 'x-auth-token': `forged-${i}` } : {}) }
    return t.call(method, url, { ...opts, headers, remoteAddress })
  }

  it('200 anonymous writes leave one row a minute that counts them, with capped fields', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    try {
      const flood = '198.51.100.40'
      const agent = `Mozilla/5.0 ${'x'.repeat(600)}`
      for (let batch = 0; batch < 10; batch++) {
        const answers = await Promise.all(
          Array.from({ length: 20 }, (_, i) => anonymousWrite(batch * 20 + i, flood, agent)),
        )
        for (const res of answers) expect(res.body).toEqual({ code: 401, msg: MSG.unauthorized, data: null })
      }
      let rows = await rowsFrom(flood)
      expect(rows).toHaveLength(1)
      expect(rows[0]).toMatchObject({
        operatorId: null,
        operatorName: null,
        ip: flood,
        // the minute's first request, whichever of the batch came first
        path: expect.stringMatching(/^\/api\/(user\/(update|insert|delete)|role\/insert)$/),
        result: 'denied',
        status: 401,
        resourceId: null,
        msg: anonymousRefusalsMsg(MSG.unauthorized, 1), // the count comes when the minute is over
      })
      expect(rows[0].userAgent).toBe(agent.slice(0, 128))
      // another source in the same minute has its own row
      await anonymousWrite(0, '198.51.100.41')
      expect(await rowsFrom('198.51.100.41')).toHaveLength(1)

      // A minute later: the first minute's row says how many, and a new minute has a row of its own.
      vi.setSystemTime(Date.now() + 60_000)
      expect((await anonymousWrite(1, flood)).status).toBe(401)
      expect((await anonymousWrite(2, flood)).status).toBe(401)
      rows = await rowsFrom(flood)
      expect(rows.map((r) => r.msg)).toEqual([
        anonymousRefusalsMsg(MSG.unauthorized, 200),
        anonymousRefusalsMsg(MSG.unauthorized, 1),
      ])
    } finally {
      vi.useRealTimers()
    }
  })

  it('a signed-in caller refused with 403 still leaves a row for each refusal', async () => {
    const weak = await t.userWithCodes(['user'], 'audit_each_403')
    const address = '198.51.100.42'
    for (let i = 0; i < 3; i++) {
      const res = await t.call('POST', '/api/user/insert', {
        token: weak.token,
        body: { nickName: `nope_${i}` },
        remoteAddress: address,
      })
      expect(res.status).toBe(403)
    }
    const rows = await rowsFrom(address)
    expect(rows).toHaveLength(3)
    expect(rows.every((r) => r.operatorId === weak.id && r.msg === MSG.forbidden)).toBe(true)
  })

  it('counts an IPv6 client per /64, and folds sources past the limit into one row', async () => {
    expect(sourceOf('203.0.113.5')).toBe('203.0.113.5')
    expect(sourceOf('::ffff:203.0.113.5')).toBe('203.0.113.5')
    expect(sourceOf('2001:db8:aa:bb:1:2:3:4')).toBe('2001:db8:aa:bb::/64')
    expect(sourceOf('2001:0db8:00aa:00bb::ffff')).toBe('2001:db8:aa:bb::/64')
    expect(sourceOf('2001:db8::1')).toBe('2001:db8:0:0::/64')
    expect(sourceOf('fe80::1%eth0')).toBe('fe80:0:0:0::/64')
    expect(sourceOf('::1')).toBe('0:0:0:0::/64')
    expect(sourceOf('64:ff9b::192.0.2.1')).toBe('64:ff9b:0:0::/64')

    const errors: Error[] = []
    const refusals = new AnonymousRefusals(t.db, (err) => errors.push(err))
    const firstRefusal = () => ({
      userAgent: 'rotating',
      method: 'POST',
      path: '/api/user/insert',
      summary: '新建用户',
      resourceType: '用户管理',
      status: 401,
      msg: MSG.unauthorized,
    })
    const now = Date.now()
    const before = (await t.db.select({ id: operationLogs.id }).from(operationLogs)).length
    // one IPv6 client rotating through its /64: one source
    for (let i = 0; i < 50; i++) await refusals.record(`2001:db8:77:1::${i.toString(16)}`, firstRefusal, now)
    // then many sources, up to the limit, and more
    for (let i = 0; i < MAX_SOURCES_PER_MINUTE + 30; i++)
      await refusals.record(`10.${i >> 8}.${i & 255}.9`, firstRefusal, now)
    const after = (await t.db.select({ id: operationLogs.id }).from(operationLogs)).length
    expect(after - before).toBe(MAX_SOURCES_PER_MINUTE + 1) // the limit's rows and one for the rest
    await refusals.close() // stopping writes the counts
    expect((await rowsFrom('2001:db8:77:1::/64'))[0].msg).toBe(anonymousRefusalsMsg(MSG.unauthorized, 50))
    const rest = await rowsFrom('*')
    expect(rest).toHaveLength(1)
    expect(rest[0].msg).toBe(anonymousRefusalsMsg(MSG.unauthorized, 31))
    expect(errors).toEqual([])
  })
})
