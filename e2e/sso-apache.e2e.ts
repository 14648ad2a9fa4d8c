import crypto from 'node:crypto'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MSG } from '@amg/contract'
import { freePort } from './global-setup'
import { apacheAvailable, startApache } from './apache-rp'
import { api, apiLogin, baseURL, launchBrowser, newPage, screenshot } from './helpers'

/**
 * DESIGN.md §16 with a relying party we did not write: Apache's mod_auth_openidc (Debian package
 * libapache2-mod-auth-openidc) signs a user in through the browser — redirect, our login screen,
 * consent, the callback, the ID token checked against our JWKS, userinfo, a refresh on every page —
 * and once the user is frozen the refresh is refused and a new sign-in too.
 */
const run = crypto.randomBytes(3).toString('hex')
const user = { nickName: `rp-${run}`, password: `Rp@${run}2024x` }
const roleName = `单点角色${run}`
let browser: Browser
let token: string
let userId: number
let apache: Awaited<ReturnType<typeof startApache>>

describe.skipIf(!apacheAvailable())('Apache mod_auth_openidc as the application', () => {
  beforeAll(async () => {
    browser = await launchBrowser()
    token = await apiLogin()
    const port = await freePort()
    const key = `apache-${run}`
    const service = await api<number>('POST', '/service/insert', {
      token,
      body: { key, name: `Apache ${key}` },
    })
    const app = await api<{ clientId: string; clientSecret: string }>('PUT', '/service/oidc', {
      token,
      body: {
        serviceId: service.data,
        type: 'web',
        redirectUris: [`http://localhost:${port}/protected/callback`],
        requireConsent: true,
      },
    })
    expect(app.status).toBe(200)
    userId = (await api<number>('POST', '/user/insert', { token, body: { ...user, status: 1 } })).data
    const role = await api<number>('POST', '/role/insert', { token, body: { roleName, authCodes: [] } })
    expect(role.status).toBe(200)
    await api('PUT', '/rel/user-rel-role', { token, body: { id: userId, roleIds: String(role.data) } })
    apache = await startApache({
      port,
      issuer: `${baseURL()}/oidc`,
      clientId: app.data.clientId,
      clientSecret: app.data.clientSecret,
    })
  })
  afterAll(async () => {
    await browser?.close()
    await apache?.stop()
  })

  it('signs in through our screens, refreshes, and is refused once the user is frozen', async () => {
    const page = await newPage(browser)
    const claimsPage = `${apache.base}/protected/claims.shtml`
    await page.goto(claimsPage)
    // Apache sent the browser to our provider, which shows the login screen
    await page.waitForURL((u) => u.href.startsWith(`${baseURL()}/oidc-login/`))
    await page.getByPlaceholder('用户昵称').fill(user.nickName)
    await page.getByPlaceholder('密码').fill(user.password)
    await page.getByRole('button', { name: /登\s*录/ }).click()
    await page.getByText('授权确认').waitFor()
    await page.getByRole('button', { name: /授\s*权/ }).click()

    // back on Apache's page: the module redeemed the code, checked the ID token against our JWKS
    // (it refuses one it cannot verify) and asked userinfo for the profile and role claims
    await page.waitForURL(claimsPage)
    const text = (id: string) => page.locator(`#${id}`).textContent()
    expect(await text('preferred_username')).toBe(user.nickName)
    expect(await text('sub')).toBe(String(userId))
    expect(await text('roles')).toBe(roleName)
    expect(await text('iss')).toBe(`${baseURL()}/oidc`)
    await screenshot(page, 'sso-apache-claims')

    // every page load refreshes the access token (rotating the refresh token): a new one each time,
    // which our userinfo accepts
    const first = await text('access_token')
    await page.reload()
    const second = await text('access_token')
    expect(second).toMatch(/\S{20,}/)
    expect(second).not.toBe(first)
    const me = await fetch(`${baseURL()}/oidc/me`, { headers: { authorization: `Bearer ${second}` } })
    expect(me.status).toBe(200)
    expect(((await me.json()) as { preferred_username: string }).preferred_username).toBe(user.nickName)

    // freezing ends the user's tokens and sessions at the provider
    const detail = (await api('GET', `/user/detail?userId=${userId}`, { token })).data
    const frozen = await api('PUT', '/user/update', {
      token,
      body: {
        id: userId,
        nickName: detail.nickName,
        mobile: detail.mobile,
        realName: detail.realName,
        status: 2,
      },
    })
    expect(frozen.status).toBe(200)
    const after = await fetch(`${baseURL()}/oidc/me`, { headers: { authorization: `Bearer ${second}` } })
    expect(after.status).toBe(401)

    // the next page load's refresh is refused: Apache ends its session and the page is not shown
    await page.goto(claimsPage)
    expect(await page.locator('#preferred_username').count()).toBe(0)
    expect(await page.locator('body').textContent()).toContain('Logged Out')
    expect(apache.errorLog()).toContain('access_token could not be refreshed')
    await screenshot(page, 'sso-apache-refused')
    // and a new sign-in through Apache is refused at our login screen
    await page.goto(claimsPage)
    await page.waitForURL((u) => u.href.startsWith(`${baseURL()}/oidc-login/`))
    await page.getByPlaceholder('用户昵称').fill(user.nickName)
    await page.getByPlaceholder('密码').fill(user.password)
    await page.getByRole('button', { name: /登\s*录/ }).click()
    await expect.poll(() => page.locator('.ant-alert-error').textContent()).toBe(MSG.loginFrozen)
    await screenshot(page, 'sso-apache-frozen')
    expect(page.url().startsWith(baseURL())).toBe(true)
    await page.context().close()
  })
})
