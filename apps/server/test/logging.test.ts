import { describe, expect, it, inject } from 'vitest'
import fs from 'node:fs'
import { buildApp } from '../src/app'
import { loadConfig } from '../src/config'
import { openDatabase } from '../src/db/connection'
import { TEST_ADMIN_PASSWORD } from './helpers/constants'

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
    config: loadConfig({}, { logLevel }),
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
  })
})
