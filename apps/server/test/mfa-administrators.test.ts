import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import * as client from 'openid-client'
import { DEFAULT_SECURITY_SETTINGS, MSG } from '@amg/contract'
import { services } from '../src/db/schema'
import { createTestApp, type TestApp } from './helpers/app'
import { CookieBrowser } from './helpers/oidc-browser'
import { TEST_ADMIN_PASSWORD, TEST_USER_PASSWORD } from './helpers/constants'
import { freePort } from './helpers/processes'

/**
 * `mfa: admins` asks administrators only (DESIGN.md §14): a super admin, or a user holding a write
 * permission of this server's management menus. File upload and download, reads, and nodes of another
 * service make no one an administrator, at the console's sign-in and at the single sign-on login alike.
 */
let t: TestApp
let base: string
const REDIRECT = 'http://localhost:9/callback'

const admin = (method: string, url: string, body?: unknown) =>
  t.call(method, url, { token: t.adminToken, body })

/** Each user of the test: the permission codes they hold through a role of their own. */
const users: Record<string, string[]> = {}
let crm: { clientId: string }

beforeAll(async () => {
  const port = await freePort()
  base = `http://127.0.0.1:${port}`
  t = await createTestApp({ publicUrl: base })
  await t.app.listen({ port, host: '127.0.0.1' })

  // another service whose node names paths this server has too: they are that service's, not ours
  const made = await admin('POST', '/api/service/insert', { key: 'mfa-crm', name: '应用 mfa-crm' })
  expect(made.status).toBe(200)
  const [service] = await t.db.select().from(services).where(eq(services.key, 'mfa-crm'))
  const node = await admin('POST', '/api/auth/insert', {
    parentCode: service.rootCode,
    chName: '客户管理',
    enName: 'crmCustomers',
    type: 3,
    status: 1,
    seq: 1,
    frontEndAccessList: '',
    urlPatternInfos: [
      { method: 'POST', uri: '/user/insert' },
      { method: 'DELETE', uri: '/customers/**' },
    ],
  })
  expect(node.status, node.body.msg).toBe(200)
  const saved = await admin('PUT', '/api/service/oidc', {
    serviceId: made.body.data,
    type: 'web',
    redirectUris: [REDIRECT],
    requireConsent: false,
  })
  expect(saved.status, saved.body.msg).toBe(200)
  crm = saved.body.data

  users.mfa_files = ['file', 'file:upload', 'file:download', 'file:download-all']
  users.mfa_crm = [node.body.data]
  users.mfa_reader = ['user', 'org', 'operlog', 'settings']
  users.mfa_adder = ['user', 'user:add']
  users.mfa_orgs = ['org', 'org:add']
  for (const [name, codes] of Object.entries(users)) await t.userWithCodes(codes, name)

  const put = await admin('PUT', '/api/settings/security', {
    ...DEFAULT_SECURITY_SETTINGS,
    forceChangeInitial: false,
    mfa: 'admins',
  })
  expect(put.status).toBe(200)
})
afterAll(async () => t.close())

const signIn = (nickName: string, password = TEST_USER_PASSWORD) =>
  t.call('POST', '/api/login', { body: { nickName, password } })

describe('mfa: admins at the console’s sign-in', () => {
  it('does not ask users holding only files, only another service’s nodes, or only reads', async () => {
    for (const name of ['mfa_files', 'mfa_crm', 'mfa_reader']) {
      const res = await signIn(name)
      expect(res.status, name).toBe(200)
      expect(res.body.data.restricted, name).toBeUndefined()
      // and the session works at once
      const current = await t.call('GET', '/api/user/current', { token: res.body.data.token })
      expect(current.status, name).toBe(200)
    }
  })

  it('asks a user holding a write of 权限管理 or 组织管理, and the super admin', async () => {
    for (const name of ['mfa_adder', 'mfa_orgs']) {
      const res = await signIn(name)
      expect(res.status, name).toBe(200)
      expect(res.body.data.restricted, name).toBe('mfa_enroll')
    }
    const superAdmin = await signIn('admin', TEST_ADMIN_PASSWORD)
    expect(superAdmin.body.data.restricted).toBe('mfa_enroll')
  })
})

describe('mfa: admins at the single sign-on login', () => {
  /** Our login screen for the crm application, as a browser reaches it; answers the login call's answer. */
  async function ssoLogin(nickName: string) {
    const config = await client.discovery(new URL(`${base}/oidc`), crm.clientId, undefined, client.None(), {
      execute: [client.allowInsecureRequests],
    })
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT,
      scope: 'openid',
      code_challenge: await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier()),
      code_challenge_method: 'S256',
      state: client.randomState(),
    })
    const browser = new CookieBrowser(base)
    const at = await browser.follow(url.href, REDIRECT)
    const uid = /\/oidc-login\/([^/?#]+)/.exec(at)?.[1]
    expect(uid, at).toBeTruthy()
    const res = await browser.request('POST', `/oidc-login/${uid}/login`, {
      body: { nickName, password: TEST_USER_PASSWORD },
    })
    return { status: res.status, body: (await res.json()) as { msg: string; data: unknown } }
  }

  it('lets a user holding only files or only the application’s own nodes through', async () => {
    for (const name of ['mfa_files', 'mfa_crm']) {
      const res = await ssoLogin(name)
      expect(res.status, `${name}: ${res.body.msg}`).toBe(200)
    }
  })

  it('stops an administrator who has not bound two-step sign-in', async () => {
    const res = await ssoLogin('mfa_adder')
    expect(res.status).toBe(403)
    expect(res.body.msg).toBe(MSG.oidcEnrollMfaFirst)
  })
})
