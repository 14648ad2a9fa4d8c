import crypto from 'node:crypto'
import { execFileSync } from 'node:child_process'
import http from 'node:http'
import type net from 'node:net'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRemoteJWKSet, jwtVerify } from 'jose'
import { api, apiLogin, baseURL, launchBrowser, newPage, screenshot, signIn } from './helpers'

/**
 * DESIGN.md §16 in a real browser: an application sends the user to the login screen (the console's
 * look), then consent, then back with a code whose ID token checks against the JWKS; a console session
 * skips the password.
 */
let browser: Browser
let token: string
let callback: http.Server
let redirectUri: string

beforeAll(async () => {
  browser = await launchBrowser()
  token = await apiLogin()
  callback = http.createServer((_req, res) => {
    res.setHeader('content-type', 'text/html; charset=utf-8')
    res.end('<h1>应用回调</h1>')
  })
  await new Promise<void>((r) => callback.listen(0, '127.0.0.1', r))
  redirectUri = `http://localhost:${(callback.address() as net.AddressInfo).port}/callback`
})
afterAll(async () => {
  await browser?.close()
  callback?.close()
})

async function application(requireConsent: boolean) {
  const key = `sso-${crypto.randomBytes(3).toString('hex')}`
  const made = await api<number>('POST', '/service/insert', { token, body: { key, name: `单点应用 ${key}` } })
  const saved = await api<{ clientId: string; clientSecret: string }>('PUT', '/service/oidc', {
    token,
    body: { serviceId: made.data, type: 'web', redirectUris: [redirectUri], requireConsent },
  })
  return saved.data
}

function authorizeUrl(clientId: string) {
  const verifier = crypto.randomBytes(32).toString('base64url')
  const challenge = crypto.createHash('sha256').update(verifier).digest('base64url')
  const url = `${baseURL()}/oidc/auth?${new URLSearchParams({
    client_id: clientId,
    response_type: 'code',
    scope: 'openid profile roles',
    redirect_uri: redirectUri,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'e2e',
  })}`
  return { url, verifier }
}

async function redeem(page: Page, app: { clientId: string; clientSecret: string }, verifier: string) {
  const code = new URL(page.url()).searchParams.get('code')!
  const res = await fetch(`${baseURL()}/oidc/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      code_verifier: verifier,
      client_id: app.clientId,
      client_secret: app.clientSecret,
    }),
  })
  expect(res.status).toBe(200)
  const tokens = (await res.json()) as { id_token: string; access_token: string }
  const jwks = createRemoteJWKSet(new URL(`${baseURL()}/oidc/jwks`))
  const { payload } = await jwtVerify(tokens.id_token, jwks, {
    issuer: `${baseURL()}/oidc`,
    audience: app.clientId,
  })
  const me = await fetch(`${baseURL()}/oidc/me`, {
    headers: { authorization: `Bearer ${tokens.access_token}` },
  })
  const info = (await me.json()) as { sub: string; preferred_username: string }
  // the profile claims come from userinfo; the ID token names the same subject
  expect(info.sub).toBe(payload.sub)
  return info
}

/** A code of Debian's oathtool (an implementation apart from the server's) for a moment in ms. */
const oathtool = (secret: string, at = Date.now()) =>
  execFileSync('oathtool', ['--totp', '-b', secret, '-N', `@${Math.floor(at / 1000)}`], {
    encoding: 'utf8',
  }).trim()

/** A user of its own with two-step sign-in bound through the API; answers its name, id and secret. */
async function enrolledUser() {
  const nickName = `sso_mfa_${crypto.randomBytes(3).toString('hex')}`
  const password = 'Member@Pass2026'
  const made = await api<number>('POST', '/user/insert', { token, body: { nickName, password } })
  expect(made.status, made.msg).toBe(200)
  const own = (await api<{ token: string }>('POST', '/login', { body: { nickName, password } })).data.token
  const setup = await api<{ secret: string }>('POST', '/user/mfa/setup', { token: own, body: {} })
  const enabled = await api('POST', '/user/mfa/enable', {
    token: own,
    // a step in the past, so that the code of now is still unused when the screen asks for it
    body: { code: oathtool(setup.data.secret, Date.now() - 30_000) },
  })
  expect(enabled.status, enabled.msg).toBe(200)
  return { id: made.data, nickName, password, secret: setup.data.secret }
}

describe('single sign-on in the browser', () => {
  it('login screen, a wrong password, consent, back to the application', async () => {
    const app = await application(true)
    const { url, verifier } = authorizeUrl(app.clientId)
    const page = await newPage(browser)
    await page.goto(url)
    await page.getByPlaceholder('用户昵称').fill('admin')
    await page.getByPlaceholder('密码').fill('wrong-password')
    await page.getByRole('button', { name: /登\s*录/ }).click()
    await expect.poll(() => page.locator('.ant-alert-error').textContent()).toBe('用户昵称或密码错误')
    await page.getByPlaceholder('密码').fill('Admin@123456')
    await page.getByRole('button', { name: /登\s*录/ }).click()
    await page.getByText('授权确认').waitFor()
    expect(await page.getByTestId('oidc-scopes').textContent()).toContain('您的角色')
    await screenshot(page, 'sso-consent')
    await page.getByRole('button', { name: /授\s*权/ }).click()
    await page.waitForURL(/\/callback\?/)
    const claims = await redeem(page, app, verifier)
    expect(claims.preferred_username).toBe('admin')
    await page.context().close()
  })

  it('two-step sign-in on the login screen: the code asked, a wrong one told, the right one continues', async () => {
    const app = await application(false)
    const user = await enrolledUser()
    try {
      const { url, verifier } = authorizeUrl(app.clientId)
      const page = await newPage(browser)
      await page.goto(url)
      await page.getByPlaceholder('用户昵称').fill(user.nickName)
      await page.getByPlaceholder('密码').fill(user.password)
      await page.getByRole('button', { name: /登\s*录/ }).click()
      const code = page.getByLabel('验证码')
      await code.waitFor()
      await screenshot(page, 'sso-mfa')
      await code.fill('000000')
      await page.getByRole('button', { name: /验\s*证/ }).click()
      await expect.poll(() => page.locator('.ant-alert-error').textContent()).toBe('验证码不正确')
      await screenshot(page, 'sso-mfa-wrong')
      await code.fill(oathtool(user.secret))
      await page.getByRole('button', { name: /验\s*证/ }).click()
      await page.waitForURL(/\/callback\?/)
      expect((await redeem(page, app, verifier)).preferred_username).toBe(user.nickName)
      await page.context().close()
    } finally {
      expect((await api('DELETE', `/user/delete?userId=${user.id}`, { token })).status).toBe(200)
    }
  })

  it('a console session skips the password', async () => {
    const app = await application(false)
    const page = await newPage(browser)
    await signIn(page)
    const { url, verifier } = authorizeUrl(app.clientId)
    await page.goto(url)
    await page.waitForURL(/\/callback\?/)
    expect((await redeem(page, app, verifier)).preferred_username).toBe('admin')
    await page.context().close()
  })
})
