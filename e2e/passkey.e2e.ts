import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { Browser, CDPSession, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { DEFAULT_SECURITY_SETTINGS } from '@amg/contract'
import { startBuiltServer } from './global-setup'
import { attemptStamp, launchBrowser, newPage, screenshot } from './helpers'

// DESIGN.md §23 in Chromium with its virtual authenticator (DevTools WebAuthn domain: ctap2, internal,
// resident key, user verification): a passkey registered in 个人中心, then signing in by the button and
// by the name box's suggestions (conditional UI), and a user who lives on a passkey alone. Browsers
// refuse an IP address as a relying-party id, so the console is reached as http://localhost:<port>,
// and PUBLIC_URL is left unset: the relying party is the address the browser used.

const ADMIN_PASSWORD = 'Keeper@Passkey2026'
const USER_PASSWORD = 'Member@Pass2026'
let browser: Browser
let server: Awaited<ReturnType<typeof startBuiltServer>>
let dataDir: string
let base = ''
let page: Page
let cdp: CDPSession
let authenticatorId = ''

async function call<T = any>(method: string, url: string, body?: unknown, token?: string) {
  const res = await fetch(`${base}/api${url}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { 'x-auth-token': token } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return { status: res.status, ...((await res.json()) as { msg: string; data: T }) }
}
const adminToken = async () =>
  (await call<{ token: string }>('POST', '/login', { nickName: 'admin', password: ADMIN_PASSWORD })).data
    .token

async function signInWithPassword(nickName: string, password: string) {
  await page.goto('/')
  await page.getByPlaceholder('用户昵称').fill(nickName)
  await page.getByPlaceholder('密码').fill(password)
  await page.getByRole('button', { name: /登\s*录/ }).click()
  await page.waitForURL('**/body', { timeout: 20_000 })
}

/** The sign-in page, signed out, with or without conditional UI. */
async function freshSignInPage(autofill: boolean) {
  // A page of the site that runs none of the console: the sign-in page left open by the last test may
  // have a passkey prompt under way (conditional UI, which the virtual authenticator answers), and on a
  // busy machine its session could be stored after the one removed here. Leaving it ends that prompt.
  await page.goto('/api/config')
  await page.evaluate((off) => {
    localStorage.removeItem('Authorization')
    if (off) localStorage.setItem('e2e-no-autofill', '1')
    else localStorage.removeItem('e2e-no-autofill')
  }, !autofill)
  await page.goto('/')
}

/** Who the console's stored session belongs to, asked of the server. */
async function signedInAs(): Promise<string | null> {
  const token = await page.evaluate(() => localStorage.getItem('Authorization'))
  if (!token) return null
  const res = await call<{ nickName: string; restricted?: string }>('GET', '/user/current', undefined, token)
  return res.status === 200
    ? `${res.data.nickName}${res.data.restricted ? ` (${res.data.restricted})` : ''}`
    : null
}

async function signOut() {
  await page.getByRole('button', { name: '退出登录' }).click()
  await page.waitForURL((url) => url.pathname === '/')
}

async function addPasskey(name: string) {
  await page.goto('/personal')
  const card = page.getByTestId('passkey-card')
  await card.getByRole('button', { name: '添加通行密钥' }).click()
  const dialog = page.getByRole('dialog')
  await dialog.getByLabel('通行密钥名称').fill(name)
  await dialog.getByRole('button', { name: /确\s*定|保\s*存/ }).click()
  await expect.poll(() => card.getByText(name, { exact: true }).isVisible(), { timeout: 20_000 }).toBe(true)
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'amg-e2e-passkey-'))
  server = await startBuiltServer(inject('webDist'), dataDir, ADMIN_PASSWORD, {
    env: { PUBLIC_URL: '', INITIAL_USER_PASSWORD: USER_PASSWORD },
  })
  base = server.baseURL.replace('127.0.0.1', 'localhost')
  browser = await launchBrowser()
  page = await newPage(browser, undefined, base)
  // the virtual authenticator answers a conditional request at once; the button's own test turns the
  // page's conditional UI off (the browser says it has none) so that the button is what signs in
  await page.context().addInitScript(() => {
    if (localStorage.getItem('e2e-no-autofill'))
      PublicKeyCredential.isConditionalMediationAvailable = async () => false
  })
  cdp = await page.context().newCDPSession(page)
  await cdp.send('WebAuthn.enable')
  ;({ authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  }))
  // a loaded machine starts the server slowly
}, 300_000)

afterAll(async () => {
  await browser?.close()
  await server?.stop()
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true })
})

describe('passkeys in the console', { timeout: 120_000 }, () => {
  it('registers a passkey in 个人中心', async () => {
    await signInWithPassword('admin', ADMIN_PASSWORD)
    await addPasskey('测试电脑')
    await screenshot(page, 'passkey-personal-center')
    const list = await call('POST', '/user/passkey/list', {}, await adminToken())
    expect(list.data.list.map((p: { name: string }) => p.name)).toEqual(['测试电脑'])
    await signOut()
  })

  it('signs in with 使用通行密钥', async () => {
    await freshSignInPage(false)
    await page.getByRole('button', { name: '使用通行密钥' }).click()
    await page.waitForURL('**/body', { timeout: 20_000 })
    expect(await signedInAs()).toBe('admin')
    await signOut()
  })

  it('signs in through the name box’s suggestions (conditional UI)', async () => {
    await freshSignInPage(false)
    await page.evaluate(() => localStorage.setItem('e2e-no-autofill', '1'))
    await page.goto('/')
    const name = page.getByPlaceholder('用户昵称')
    expect(await name.getAttribute('autocomplete')).toBe('username webauthn')
    // conditional UI on again: the page asks the browser for the name box's passkeys as it loads
    await page.evaluate(() => localStorage.removeItem('e2e-no-autofill'))
    await page.reload()
    // the virtual authenticator answers the conditional request with the site's passkey
    await page.waitForURL('**/body', { timeout: 20_000 })
    expect(await signedInAs()).toBe('admin')
    await screenshot(page, 'passkey-autofill-signed-in')
    await signOut()
  })

  it('lets a user live on a passkey alone: no password change, no second step', async () => {
    const token = await adminToken()
    const member = `pk_${attemptStamp()}`
    const created = await call<number>('POST', '/user/insert', { nickName: member, status: 1 }, token)
    expect(created.status).toBe(200)
    await freshSignInPage(false)
    await signInWithPassword(member, USER_PASSWORD)
    await addPasskey('成员手机')
    await signOut()
    // now the settings force a change of a password set by someone else, and two-step sign-in for all
    const put = await call(
      'PUT',
      '/settings/security',
      { ...DEFAULT_SECURITY_SETTINGS, forceChangeInitial: true, mfa: 'all' },
      token,
    )
    expect(put.status).toBe(200)
    const withPassword = await call('POST', '/login', { nickName: member, password: USER_PASSWORD })
    expect(withPassword.data).toMatchObject({ mfaRequired: true, methods: ['passkey'] })
    // this device keeps only the member's passkey (the admin's would be offered first)
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId })
    for (const c of credentials)
      if (Buffer.from(c.userHandle ?? '', 'base64').toString() !== String(created.data))
        await cdp.send('WebAuthn.removeCredential', { authenticatorId, credentialId: c.credentialId })
    await freshSignInPage(false)
    await page.getByRole('button', { name: '使用通行密钥' }).click()
    await page.waitForURL('**/body', { timeout: 20_000 })
    // no dialog holds the session back
    await page.waitForTimeout(500)
    expect(await page.getByText('请先修改密码').count()).toBe(0)
    expect(await signedInAs()).toBe(member)
    await screenshot(page, 'passkey-only-user')
  })
})
