import net, { type AddressInfo } from 'node:net'
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { MSG } from '@amg/contract'
import { buildApp } from '../src/app'
import { openDatabase, type Database } from '../src/db/connection'
import { createTestApp, type TestApp } from './helpers/app'
import { eventually, failOnUncaughtErrors, sleep } from './helpers/pg-faults'

/**
 * The database goes away under one instance (it reaches PostgreSQL through a TCP proxy that is shut,
 * every connection through it cut, as a network failure or a database host going down does) while
 * another instance keeps it. Meanwhile the first answers what memory holds — warm sessions and
 * decisions, forward auth and check alike — refuses with 503 what it cannot decide (never 500, never a
 * 200 by mistake), and reports the database down; once the proxy is back it resumes by itself, and
 * what changed meanwhile on the other instance is known.
 */
failOnUncaughtErrors()

/** A TCP proxy in front of PostgreSQL that can be shut (every connection cut, new ones refused) and opened again. */
class Outage {
  private server: net.Server | undefined
  private readonly sockets = new Set<net.Socket>()
  port = 0

  constructor(private readonly target: { host: string; port: number }) {}

  async open() {
    const server = net.createServer((client) => {
      const upstream = net.connect(this.target)
      for (const s of [client, upstream]) {
        this.sockets.add(s)
        s.on('error', () => {
          client.destroy()
          upstream.destroy()
        })
        s.on('close', () => {
          this.sockets.delete(s)
          client.destroy()
          upstream.destroy()
        })
      }
      client.pipe(upstream).pipe(client)
    })
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve))
    this.port = (server.address() as AddressInfo).port
    this.server = server
  }

  async shut() {
    const server = this.server
    this.server = undefined
    for (const s of this.sockets) s.destroy()
    await new Promise((resolve) => server?.close(resolve))
  }
}

interface Instance {
  app: FastifyInstance
  database: Database
  base: string
}

let t: TestApp
let outage: Outage
let instance: Instance | undefined

/** An instance of the server reaching the test's database through the proxy, listening over HTTP. */
async function startBehindProxy(outageGraceMs: number): Promise<Instance> {
  const direct = new URL(t.databaseUrl!)
  outage = new Outage({ host: direct.hostname, port: Number(direct.port || 5432) })
  await outage.open()
  const proxied = new URL(t.databaseUrl!)
  proxied.hostname = '127.0.0.1'
  proxied.port = String(outage.port)
  const database = await openDatabase({
    databaseUrl: proxied.toString(),
    stageAuditRows: true,
    sessionLimits: { statementTimeoutMs: 30_000, idleInTransactionTimeoutMs: 30_000 },
    outageGraceMs,
  })
  const app = await buildApp({ config: t.config, database, logger: false })
  await app.listen({ port: 0, host: '127.0.0.1' })
  return { app, database, base: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api` }
}

const forward = (base: string, token: string, method: string, uri: string) =>
  fetch(`${base}/authz/forward`, {
    headers: { 'x-auth-token': token, 'x-original-method': method, 'x-original-uri': uri },
  })

const call = async (base: string, method: string, path: string, token?: string, body?: unknown) => {
  const res = await fetch(base + path, {
    method,
    headers: {
      ...(token ? { 'x-auth-token': token } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return {
    status: res.status,
    headers: res.headers,
    body: (await res.json()) as { code: number; msg: string; data: any },
  }
}

async function expectUnavailable(res: Response | Awaited<ReturnType<typeof call>>) {
  expect(res.status).toBe(503)
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0)
  const body = 'json' in res ? await res.json() : res.body
  expect(body).toEqual({ code: 503, msg: MSG.serviceUnavailable, data: null })
}

describe.skipIf(!inject('pgTemplate'))('the database unreachable from one instance (PostgreSQL)', () => {
  beforeAll(async () => {
    t = await createTestApp()
  })
  afterEach(async () => {
    await instance?.app.close()
    await instance?.database.close()
    instance = undefined
    await outage?.shut()
  })
  afterAll(async () => t?.close())

  it('answers warm decisions from memory, refuses cold ones with 503, reports the database down, and resumes by itself', async () => {
    const a = (instance = await startBehindProxy(60_000))
    const warm = await t.userWithCodes(['user', 'authz'], 'outage_warm')
    const cold = await t.userWithCodes(['user', 'authz'], 'outage_cold')
    // warm on this instance: the session and the decisions it will be asked
    expect((await forward(a.base, warm.token, 'POST', '/user/list')).status).toBe(200)
    expect((await forward(a.base, warm.token, 'POST', '/role/insert')).status).toBe(403)
    expect(
      (await call(a.base, 'POST', '/authz/check', warm.token, { method: 'POST', path: '/user/list' })).status,
    ).toBe(200)
    expect((await call(a.base, 'GET', '/health')).status).toBe(200)

    await outage.shut()

    const health = await call(a.base, 'GET', '/health')
    expect(health.status).toBe(503)
    expect(health.body.data).toEqual({ status: 'down', database: 'down' })

    for (let i = 0; i < 3; i++) {
      const allowed = await forward(a.base, warm.token, 'POST', '/user/list')
      expect(allowed.status).toBe(200)
      expect(allowed.headers.get('x-auth-user-id')).toBe(String(warm.id))
      const refused = await forward(a.base, warm.token, 'POST', '/role/insert')
      expect(refused.status).toBe(403)
      const check = await call(a.base, 'POST', '/authz/check', warm.token, {
        method: 'POST',
        path: '/user/list',
      })
      expect(check.status).toBe(200)
      expect(check.body.data).toEqual({ allowed: true, userId: warm.id })
      // what memory does not hold: a session never seen here, another user's access, any write
      await expectUnavailable(await forward(a.base, cold.token, 'POST', '/user/list'))
      await expectUnavailable(
        await call(a.base, 'POST', '/authz/check', cold.token, { method: 'POST', path: '/user/list' }),
      )
      await expectUnavailable(
        await call(a.base, 'POST', '/user/insert', t.adminToken, { nickName: `outage_write_${i}` }),
      )
    }
    // a forged token is refused with 503, never let through
    await expectUnavailable(await forward(a.base, 'no-such-token', 'POST', '/user/list'))

    // meanwhile the other instance takes the warm user's session away
    const online = await t.call('POST', '/api/session/online/list', {
      token: t.adminToken,
      body: { pageNum: 1, pageSize: 50, nickName: 'outage_warm' },
    })
    const sessionId = online.body.data.list[0].id
    expect(
      (
        await t.call('DELETE', '/api/session/online/revoke', {
          token: t.adminToken,
          query: { id: sessionId },
        })
      ).status,
    ).toBe(200)

    await outage.open()
    await eventually(async () => (await call(a.base, 'GET', '/health')).status === 200, 'health back')
    await eventually(async () => a.database.hearsEveryChange(), 'listener back')
    // the revocation made during the outage is known here now; the cold session works
    expect((await forward(a.base, warm.token, 'POST', '/user/list')).status).toBe(401)
    expect((await forward(a.base, cold.token, 'POST', '/user/list')).status).toBe(200)
    const write = await call(a.base, 'POST', '/user/insert', t.adminToken, { nickName: 'outage_after' })
    expect(write.status, write.body.msg).toBe(200)
  }, 120_000)

  it('past the grace, warm answers are dropped too: refused with 503 until the database is back', async () => {
    const a = (instance = await startBehindProxy(1_000))
    const warm = await t.userWithCodes(['user'], 'grace_warm')
    expect((await forward(a.base, warm.token, 'POST', '/user/list')).status).toBe(200)
    await outage.shut()
    expect((await forward(a.base, warm.token, 'POST', '/user/list')).status).toBe(200)
    await sleep(1_500)
    await expectUnavailable(await forward(a.base, warm.token, 'POST', '/user/list'))
    await outage.open()
    await eventually(
      async () => (await forward(a.base, warm.token, 'POST', '/user/list')).status === 200,
      'warm again after the outage',
    )
  }, 60_000)
})
