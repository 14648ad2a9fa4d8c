import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import net from 'node:net'
import { sql } from 'drizzle-orm'
import { buildApp } from '../src/app'
import { createTestApp, type CallOptions, type TestApp } from './helpers/app'
import { accessSnapshot } from './helpers/snapshot'
import { TEST_ADMIN_PASSWORD } from './helpers/constants'

/**
 * DESIGN.md §11: no input answers 5xx. The inputs that did, each refused now with 400 and a message
 * naming the field, in the envelope, with nothing changed.
 */
let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(async () => t.close())

const envelope = (res: { status: number; body: { code: number; msg: string; data: unknown } }) => {
  expect(res.body.code).toBe(res.status)
  expect(typeof res.body.msg).toBe('string')
  expect(res.body.data).toBeNull()
}

describe('malformed input is refused with 400 naming the field, and changes nothing', () => {
  const cases: [string, string, CallOptions, string | RegExp][] = [
    [
      'POST',
      '/api/login',
      { body: { nickName: 'a\u0000b', password: 'x' } },
      '参数 nickName 不正确：不能包含控制字符',
    ],
    ['GET', '/api/user/detail', { query: { userId: 'Infinity' } }, /userId/],
    ['GET', '/api/user/detail', { query: { userId: '1e400' } }, /userId/],
    ['POST', '/api/role/admin/insert', { body: { roleName: 'r', status: 'Infinity' } }, /status/],
    ['POST', '/api/user/list', { body: { pageNum: 1e300 } }, /pageNum/],
    ['PUT', '/api/rel/user-rel-role', { body: { id: 1, roleIds: 2147483648 } }, /roleIds/],
    ['PUT', '/api/rel/user-rel-groups', { body: { id: 1, greoupIds: 2147483648 } }, /greoupIds/],
    ['PUT', '/api/rel/user-rel-position', { body: { id: 1, positionIds: 2147483648 } }, /positionIds/],
    ['PUT', '/api/rel/user-rel-role', { body: { id: 1, roleIds: '2147483648' } }, /角色/],
    ['POST', '/api/station/list', { body: { stationName: ['1'] } }, /stationName/],
    ['POST', '/api/station/list/simple', { body: { orgId: [1] } }, /orgId/],
    [
      'POST',
      '/api/user/insert',
      { body: { nickName: 'x\u0000y' } },
      '参数 nickName 不正确：不能包含控制字符',
    ],
    ['POST', '/api/role/insert', { body: { roleName: 'a\u0001' } }, '参数 roleName 不正确：不能包含控制字符'],
    [
      'POST',
      '/api/user_groups/insert',
      { body: { groupName: 'g', status: 1, description: 'x\u0000' } },
      /description/,
    ],
    // JSON's 1e400 parses to Infinity: sent as raw text
    [
      'POST',
      '/api/auth/insert',
      {
        body: '{"chName":"a","enName":"b","type":3,"status":1,"seq":1e400,"urlPatternInfos":[]}',
        headers: { 'content-type': 'application/json' },
      },
      /排序号|seq/,
    ],
  ]

  it.each(cases)('%s %s %j', async (method, url, opts, msg) => {
    const before = await accessSnapshot(t.db)
    const res = await t.call(method, url, { token: t.adminToken, ...opts })
    expect(res.status, res.raw).toBe(400)
    envelope(res)
    if (typeof msg === 'string') expect(res.body.msg).toBe(msg)
    else expect(res.body.msg).toMatch(msg)
    expect(await accessSnapshot(t.db)).toEqual(before)
  })

  it('keeps tab and line breaks in descriptions', async () => {
    const res = await t.call('POST', '/api/user_groups/insert', {
      token: t.adminToken,
      body: { groupName: `换行组${Date.now()}`, status: 1, description: '第一行\n第二行\t缩进' },
    })
    expect(res.status).toBe(200)
  })
})

describe('client errors Fastify and Node raise answer in the envelope', () => {
  it('bad JSON, wrong content type and a too large body', async () => {
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/user/list',
      headers: { 'content-type': 'application/json', 'x-auth-token': t.adminToken },
      payload: '{"pageNum":',
    })
    expect(bad.statusCode).toBe(400)
    envelope({ status: bad.statusCode, body: bad.json() })
    const type = await t.app.inject({
      method: 'POST',
      url: '/api/user/list',
      headers: { 'content-type': 'application/x-unknown', 'x-auth-token': t.adminToken },
      payload: 'x',
    })
    expect(type.statusCode).toBe(415)
    envelope({ status: type.statusCode, body: type.json() })
    const big = await t.app.inject({
      method: 'POST',
      url: '/api/user/list',
      headers: { 'content-type': 'application/json', 'x-auth-token': t.adminToken },
      payload: JSON.stringify({ nickName: 'x'.repeat(2 * 1024 * 1024) }),
    })
    expect(big.statusCode).toBe(413)
    envelope({ status: big.statusCode, body: big.json() })
  })

  it('a URL or headers over 16 KB: 431 in the envelope, over a real socket', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' })
    const { port } = t.app.server.address() as net.AddressInfo
    const raw = async (request: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = net.connect(port, '127.0.0.1', () => socket.write(request))
        let answer = ''
        socket.on('data', (d) => (answer += d))
        socket.on('end', () => resolve(answer))
        socket.on('error', reject)
      })
    for (const request of [
      `GET /api/health?x=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
      `GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    ]) {
      const answer = await raw(request)
      expect(answer.startsWith('HTTP/1.1 431')).toBe(true)
      const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))
      expect(body).toEqual({ code: 431, msg: '请求头或请求地址过长', data: null })
    }
  })
})

describe('the database safety net', () => {
  it('maps a data error (SQLSTATE class 22) to 400 and never logs the failed query’s parameters', async () => {
    // a second app, with its log captured, on a fresh test database of either engine
    const fresh = await createTestApp()
    const database = fresh.database
    const lines: string[] = []
    const app = await buildApp({
      config: fresh.config,
      database,
      logStream: { write: (line) => lines.push(line) },
    })
    try {
      // a check the services do not know about: the database refuses every new user with a data error
      await database.db.execute(sql`create function refuse_users() returns trigger language plpgsql as $$
        begin raise exception 'refused by test' using errcode = '22023'; end $$`)
      await database.db.execute(
        sql`create trigger refuse_users before insert on users for each row execute function refuse_users()`,
      )
      const login = await app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { nickName: 'admin', password: TEST_ADMIN_PASSWORD },
      })
      const token = login.json().data.token as string
      const res = await app.inject({
        method: 'POST',
        url: '/api/user/insert',
        headers: { 'x-auth-token': token },
        payload: { nickName: 'logged_or_not', password: 'Secret@Pass2026x' },
      })
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({ code: 400, msg: '请求参数不正确：数据格式不合法或超出范围', data: null })
      const log = lines.join('')
      expect(log).toContain('refused by test')
      expect(log).not.toContain('scrypt$')
      expect(log).not.toContain('Secret@Pass2026x')
      expect(log).not.toContain('logged_or_not')
    } finally {
      await app.close()
      await fresh.close()
    }
  })
})
