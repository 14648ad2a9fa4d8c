import { describe, expect, it, inject } from 'vitest'
import fs from 'node:fs'
import type { AddressInfo } from 'node:net'
import { buildApp } from '../src/app'
import { loadConfig } from '../src/config'
import { openDatabase } from '../src/db/connection'
import { TEST_ADMIN_PASSWORD, TEST_SECRET_KEY } from './helpers/constants'

/** An app on a fresh PGlite whose log lines are kept; `use` drives it, then everything is closed. */
async function withLoggedApp(
  logLevel: string,
  use: (app: Awaited<ReturnType<typeof buildApp>>) => Promise<void>,
) {
  const database = await openDatabase({
    memory: true,
    stageAuditRows: true,
    loadDataDir: new Blob([fs.readFileSync(inject('pgliteTemplate'))]),
  })
  const lines: string[] = []
  const app = await buildApp({
    // the tests' SECRET_KEY: the template's signing keys are sealed with it
    config: loadConfig({}, { logLevel, secretKey: TEST_SECRET_KEY }),
    database,
    logStream: { write: (line) => lines.push(line) },
  })
  try {
    await use(app)
  } finally {
    await app.close()
    await database.close()
  }
  return lines.map(
    (l) => JSON.parse(l) as { msg: string; level: number; req?: { method: string; url: string } },
  )
}

async function signIn(app: Awaited<ReturnType<typeof buildApp>>) {
  const login = await app.inject({
    method: 'POST',
    url: '/api/login',
    payload: { nickName: 'admin', password: TEST_ADMIN_PASSWORD },
  })
  return login.json().data.token as string
}

describe.skipIf(!!inject('pgTemplate'))('the request log', () => {
  it('records requests but never passwords or tokens', async () => {
    let token = ''
    const lines = await withLoggedApp('debug', async (app) => {
      token = await signIn(app)
      await app.inject({ method: 'GET', url: '/api/user/current', headers: { 'x-auth-token': token } })
      await app.inject({
        method: 'PUT',
        url: '/api/user/password',
        headers: { 'x-auth-token': token },
        payload: { oldPassword: TEST_ADMIN_PASSWORD, newPassword: 'weak' },
      })
    })
    const log = JSON.stringify(lines)
    expect(log).toContain('/api/login')
    expect(log).toContain('/api/user/current')
    expect(log).not.toContain(TEST_ADMIN_PASSWORD)
    expect(log).not.toContain(token)
  })

  it('at the default level, writes one line per write and per refusal, none per successful read', async () => {
    const lines = await withLoggedApp('info', async (app) => {
      const token = await signIn(app)
      const headers = { 'x-auth-token': token }
      await app.inject({ method: 'GET', url: '/api/user/current', headers })
      await app.inject({ method: 'POST', url: '/api/role/listall', headers, payload: {} })
      await app.inject({
        method: 'POST',
        url: '/api/org/insert',
        headers,
        payload: { organizationName: '日志部' },
      })
      await app.inject({ method: 'GET', url: '/api/user/current' })
    })
    const requests = lines
      .filter((l) => l.msg === 'request completed')
      .map((l) => `${l.req?.method} ${l.req?.url}`)
    expect(requests).toEqual([
      'POST /api/login',
      'POST /api/org/insert',
      'GET /api/user/current', // the one without a token: 401
    ])
    // each line carries its own request's id, the reads between them having written none
    // (lib/request-logger.ts: a request's child logger is made at its first line)
    const ids = lines.filter((l) => l.msg === 'request completed').map((l) => (l as { reqId?: string }).reqId)
    for (const id of ids) expect(id).toMatch(/^req-[0-9a-z]+$/)
    expect(new Set(ids).size).toBe(ids.length)
  })

  it('logs gateway questions answered over HTTP as the request log does: refusals at info, a 200 at debug', async () => {
    const ask = async (app: Awaited<ReturnType<typeof buildApp>>, token?: string) => {
      const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/authz/forward`
      const headers = { 'x-original-method': 'GET', 'x-original-uri': '/user/list' }
      const res = await fetch(url, { headers: token ? { ...headers, 'x-auth-token': token } : headers })
      return res.status
    }
    const forwardLines = (lines: { msg: string; req?: { url: string }; res?: { statusCode: number } }[]) =>
      lines
        .filter((l) => l.msg === 'request completed' && l.req?.url === '/api/authz/forward')
        .map((l) => l.res?.statusCode)
    let token = ''
    const atInfo = await withLoggedApp('info', async (app) => {
      await app.listen({ port: 0, host: '127.0.0.1' })
      token = await signIn(app)
      expect(await ask(app, token)).toBe(200)
      expect(await ask(app)).toBe(401)
    })
    expect(forwardLines(atInfo)).toEqual([401])
    const atDebug = await withLoggedApp('debug', async (app) => {
      await app.listen({ port: 0, host: '127.0.0.1' })
      token = await signIn(app)
      expect(await ask(app, token)).toBe(200)
    })
    expect(forwardLines(atDebug)).toEqual([200])
    expect(JSON.stringify(atDebug)).not.toContain(token)
  })
})
