import net from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import * as client from 'openid-client'
import { MSG, serviceAccountNameTaken } from '@amg/contract'
import { oidcClients, users } from '../src/db/schema'
import { hashPassword } from '../src/auth/password'
import { createTestApp, type TestApp } from './helpers/app'
import { TEST_USER_PASSWORD } from './helpers/constants'
import { CookieBrowser } from './helpers/oidc-browser'
import { seedScopedCompany, type ScopedCompany } from './helpers/scoped-company'
import { csvOf, runImport } from './helpers/workbooks'

/**
 * DESIGN.md §11, §16: a machine client's service account is always made new, marked, without a
 * password, and never signs in interactively; no one else may take a name beginning `svc-`, and a user
 * already holding the name is never adopted.
 */
type Json = any
let t: TestApp
let c: ScopedCompany
let base: string
const REDIRECT = 'http://localhost:9/callback'

beforeAll(async () => {
  const probe = net.createServer()
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r))
  const port = (probe.address() as net.AddressInfo).port
  await new Promise((r) => probe.close(r))
  base = `http://127.0.0.1:${port}`
  t = await createTestApp({ publicUrl: base })
  c = await seedScopedCompany(t)
  await t.app.listen({ port, host: '127.0.0.1' })
})
afterAll(async () => t.close())

const admin = (method: string, url: string, body?: unknown, query?: Record<string, string | number>) =>
  t.call(method, url, { token: t.adminToken, body, query })

async function newService(key: string) {
  const made = await admin('POST', '/api/service/insert', { key, name: `服务 ${key}` })
  expect(made.status, made.body.msg).toBe(200)
  return made.body.data as number
}

const machineOn = (serviceId: number) =>
  admin('PUT', '/api/service/oidc', { serviceId, type: 'machine', redirectUris: [] })

/** A user written past the API, as one made before the rule (or adopted by an older version) is. */
async function userWithPassword(nickName: string) {
  const [row] = await t.db
    .insert(users)
    .values({ nickName, passwordHash: await hashPassword(TEST_USER_PASSWORD), status: 1 })
    .returning({ id: users.id })
  return row.id
}

async function machineToken(clientId: string, clientSecret: string) {
  const res = await fetch(`${base}/oidc/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: clientId,
      client_secret: clientSecret,
    }),
  })
  expect(res.status).toBe(200)
  return ((await res.json()) as Json).access_token as string
}

describe('turning a machine client on', () => {
  it('makes a new, marked account without a password; a user already named svc-<key> is refused with 409, never adopted', async () => {
    const squatter = await userWithPassword('svc-billing')
    const serviceId = await newService('billing')
    const refused = await machineOn(serviceId)
    expect(refused.status).toBe(409)
    expect(refused.body.msg).toBe(serviceAccountNameTaken('svc-billing'))
    expect(await t.db.select().from(oidcClients).where(eq(oidcClients.serviceId, serviceId))).toEqual([])
    // the same name in other capitals, made before the rule, is the same name
    await userWithPassword('SVC-Ledger')
    const ledger = await machineOn(await newService('ledger'))
    expect(ledger.status).toBe(409)
    expect(ledger.body.msg).toBe(serviceAccountNameTaken('SVC-Ledger'))

    // once the user is renamed, sign-on makes a service account of its own
    const renamed = await admin('PUT', '/api/user/update', {
      id: squatter,
      nickName: 'was-svc-billing',
      status: 1,
    })
    expect(renamed.status, renamed.body.msg).toBe(200)
    const saved = await machineOn(serviceId)
    expect(saved.status, saved.body.msg).toBe(200)
    expect(saved.body.data.clientSecret).toEqual(expect.any(String))
    const [row] = await t.db.select().from(oidcClients).where(eq(oidcClients.serviceId, serviceId))
    expect(row.serviceUserId).not.toBe(squatter)
    expect(row.requireConsent).toBe(false)
    const [account] = await t.db.select().from(users).where(eq(users.id, row.serviceUserId!))
    expect(account).toMatchObject({ nickName: 'svc-billing', serviceAccount: true, passwordHash: '!' })

    // the console sees it as one: in the list, tagged; in the detail; never in the people pickers
    const list = await admin('POST', '/api/user/list', { nickName: 'svc-billing', pageNum: 1, pageSize: 10 })
    const listed = new Map(list.body.data.list.map((u: Json) => [u.id, u.serviceAccount]))
    expect(listed).toEqual(
      new Map([
        [account.id, true],
        [squatter, false],
      ]),
    )
    const detail = await admin('GET', '/api/user/detail', undefined, { userId: account.id })
    expect(detail.body.data.serviceAccount).toBe(true)
    const picker = await admin('POST', '/api/user/namelist', {
      nickName: 'svc-billing',
      pageNum: 1,
      pageSize: 50,
    })
    expect(picker.status).toBe(200)
    expect(picker.body.data.list.map((u: Json) => u.id)).toEqual([squatter])
  })

  it('turned off and on again, the service takes up its own service account again', async () => {
    const serviceId = await newService('reports')
    const first = await machineOn(serviceId)
    expect(first.status, first.body.msg).toBe(200)
    const [before] = await t.db.select().from(oidcClients).where(eq(oidcClients.serviceId, serviceId))
    expect((await admin('DELETE', '/api/service/oidc', undefined, { serviceId })).status).toBe(200)
    const again = await machineOn(serviceId)
    expect(again.status, again.body.msg).toBe(200)
    const [after] = await t.db.select().from(oidcClients).where(eq(oidcClients.serviceId, serviceId))
    expect(after.serviceUserId).toBe(before.serviceUserId)
  })
})

describe('a service account never signs in interactively, and holds no password', () => {
  let account: { id: number; nickName: string }
  let token: string
  let webClient: { clientId: string; clientSecret: string }

  beforeAll(async () => {
    const serviceId = await newService('payroll')
    const saved = await machineOn(serviceId)
    expect(saved.status, saved.body.msg).toBe(200)
    const [row] = await t.db.select().from(oidcClients).where(eq(oidcClients.serviceId, serviceId))
    account = { id: row.serviceUserId!, nickName: 'svc-payroll' }
    token = await machineToken(saved.body.data.clientId, saved.body.data.clientSecret)
    // the worst case: a password an older version left on it (migration 0024 removes such hashes)
    await t.db
      .update(users)
      .set({ passwordHash: await hashPassword(TEST_USER_PASSWORD) })
      .where(eq(users.id, account.id))
    const web = await newService('portal')
    const app = await admin('PUT', '/api/service/oidc', {
      serviceId: web,
      type: 'web',
      redirectUris: [REDIRECT],
      requireConsent: false,
    })
    expect(app.status, app.body.msg).toBe(200)
    webClient = app.body.data
  })

  it('POST /api/login answers as for a wrong password, even with the password it once had; a person signs in', async () => {
    const login = await t.call('POST', '/api/login', {
      body: { nickName: account.nickName, password: TEST_USER_PASSWORD },
    })
    expect(login.status).toBe(401)
    expect(login.body.msg).toBe(MSG.loginFailed)
    const person = await userWithPassword(`person_${Date.now()}`)
    const [p] = await t.db.select().from(users).where(eq(users.id, person))
    expect(
      (await t.call('POST', '/api/login', { body: { nickName: p.nickName, password: TEST_USER_PASSWORD } }))
        .status,
    ).toBe(200)
  })

  it('the single sign-on login screen refuses it too', async () => {
    const config = await client.discovery(
      new URL(`${base}/oidc`),
      webClient.clientId,
      webClient.clientSecret,
      undefined,
      {
        execute: [client.allowInsecureRequests],
      },
    )
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT,
      scope: 'openid',
      code_challenge: await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier()),
      code_challenge_method: 'S256',
    })
    const browser = new CookieBrowser(base)
    const uid = /\/oidc-login\/([^/?#]+)/.exec(await browser.follow(url.href, REDIRECT))![1]
    const res = await browser.request('POST', `/oidc-login/${uid}/login`, {
      body: { nickName: account.nickName, password: TEST_USER_PASSWORD },
    })
    expect(res.status).toBe(401)
    expect(((await res.json()) as Json).msg).toBe(MSG.loginFailed)
  })

  it('its machine token cannot change its password; an administrator cannot reset it, but may freeze it', async () => {
    const bearer = { authorization: `Bearer ${token}` }
    const own = await t.call('PUT', '/api/user/password', {
      headers: bearer,
      body: { oldPassword: TEST_USER_PASSWORD, newPassword: 'Another@123456' },
    })
    expect(own.status).toBe(403)
    expect(own.body.msg).toBe(MSG.serviceAccountNoPassword)
    const reset = await admin('PUT', '/api/user/update', {
      id: account.id,
      nickName: account.nickName,
      status: 1,
      password: 'Reset@12345678',
    })
    expect(reset.status).toBe(400)
    expect(reset.body.msg).toBe(MSG.serviceAccountNoPassword)
    const [row] = await t.db.select().from(users).where(eq(users.id, account.id))
    expect(row.mustChangePassword).toBe(0)
    // the rest of an update is an administrator's as for anyone: it keeps its reserved name
    const frozen = await admin('PUT', '/api/user/update', {
      id: account.id,
      nickName: account.nickName,
      status: 2,
    })
    expect(frozen.status, frozen.body.msg).toBe(200)
  })
})

describe('names beginning svc- are reserved (compared after NFKC, in any case)', () => {
  const reserved = ['svc-x1', 'Svc-x2', 'SVC-x3', 'ｓｖｃ-x4', 'ｓｖｃ－x5', 'svc‐x6']

  it('a department administrator cannot make such a user; other names are theirs to make', async () => {
    for (const nickName of reserved) {
      const res = await t.call('POST', '/api/user/insert', {
        token: c.scoped.token,
        body: { nickName, positionIds: [c.posA1] },
      })
      expect(res.status, nickName).toBe(400)
      expect(res.body.msg).toBe(MSG.nickNameReserved)
    }
    const stored = await t.db.select({ n: users.nickName }).from(users)
    expect(stored.filter((u) => /x[1-6]$/.test(u.n))).toEqual([])
    for (const nickName of ['svcx7', 'service-x8', 'my-svc-x9']) {
      const res = await t.call('POST', '/api/user/insert', {
        token: c.scoped.token,
        body: { nickName, positionIds: [c.posA1] },
      })
      expect(res.status, `${nickName}: ${res.body.msg}`).toBe(200)
    }
  })

  it('no one renames a user to one; a name held from before the rule may be kept', async () => {
    const res = await t.call('PUT', '/api/user/update', {
      token: c.scoped.token,
      body: { id: c.inside, nickName: 'Svc-inside', status: 1 },
    })
    expect(res.status).toBe(400)
    expect(res.body.msg).toBe(MSG.nickNameReserved)
    const old = await userWithPassword('svc-older')
    const kept = await admin('PUT', '/api/user/update', { id: old, nickName: 'svc-older', status: 2 })
    expect(kept.status, kept.body.msg).toBe(200)
  })

  it('an import refuses such rows with the same reason and takes the others', async () => {
    const header = ['登录名*', '姓名', '手机号', '状态', '岗位', '角色', '用户组', '初始密码']
    const file = Buffer.from(
      '\ufeff' +
        csvOf([header, ['ＳＶＣ-imp', '', '', '', '', '', '', ''], ['imp-ok', '', '', '', '', '', '', '']]),
    )
    const { job, result } = await runImport(t, file, { fileName: 'users.csv' })
    expect(job).toMatchObject({ inserted: 1, failed: 1 })
    expect(result.get(2)?.[9]).toBe(MSG.nickNameReserved)
    expect(await t.db.select().from(users).where(eq(users.nickName, 'svc-imp'))).toEqual([])
  })
})
