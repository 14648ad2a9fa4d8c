import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createdData } from './cleanup'
import { api, apiLogin, launchBrowser, newPage, settledScreenshot, signIn } from './helpers'
import { isTreeChecked, poll, toast, tree, treeBox } from './role-helpers'

/**
 * DESIGN.md §10: the role forms show what a changed permission set does to the role's users
 * before saving it (POST /authz/role-impact); a change of name alone is saved at once.
 */

let browser: Browser
let page: Page
let token: string
const s = Date.now().toString(36)
const created = createdData()
const names = { role: `ri${s}角色`, adminRole: `ri${s}内置`, user: `ri${s}用户`, node: `ri${s}停用` }
const ids = {} as Record<'role' | 'adminRole' | 'user', number>
const impactCalls: unknown[] = []

async function ok<T>(res: Promise<{ status: number; code: number; msg: string; data: T }>): Promise<T> {
  const r = await res
  if (r.status !== 200 || r.code !== 200) throw new Error(`${r.status} ${r.code} ${r.msg}`)
  return r.data
}
const held = async (id: number) =>
  [...(await ok(api<{ authCodes: string[] }>('GET', `/role/detail?id=${id}`, { token }))).authCodes].sort()

/** The window as it is (a full-page shot would stretch the page under the dialog's mask). */
const dialogShot = (name: string) => settledScreenshot(page, name, { fullPage: false })

const dialog = () => page.getByRole('dialog').filter({ hasText: '确认修改角色权限' })
const save = () => page.getByRole('button', { name: /保\s*存/ }).click()

async function useTheme(mode: 'light' | 'dark') {
  await page.getByTestId('appearance').first().click()
  await page.getByRole('menuitem', { name: mode === 'dark' ? '深色主题' : '浅色主题' }).click()
  await page.keyboard.press('Escape')
}

beforeAll(async () => {
  token = await apiLogin()
  const codes = ['monitor', 'loginlog']
  ids.role = await ok(
    api<number>('POST', '/role/insert', { token, body: { roleName: names.role, authCodes: codes } }),
  )
  created.remember(`/role/delete?id=${ids.role}`)
  ids.adminRole = await ok(
    api<number>('POST', '/role/admin/insert', {
      token,
      body: { roleName: names.adminRole, type: 2, status: 1, authCodes: codes },
    }),
  )
  created.remember(`/role/admin/delete?id=${ids.adminRole}`)
  ids.user = await ok(api<number>('POST', '/user/insert', { token, body: { nickName: names.user } }))
  created.remember(`/user/delete?userId=${ids.user}`)
  await ok(
    api('PUT', '/rel/user-rel-role', {
      token,
      body: { id: ids.user, roleIds: `${ids.role},${ids.adminRole}` },
    }),
  )

  browser = await launchBrowser()
  page = await newPage(browser)
  page.on('request', (req) => {
    if (req.url().endsWith('/api/authz/role-impact')) impactCalls.push(req.postDataJSON())
  })
  await signIn(page)
})

afterAll(async () => {
  await browser?.close()
  await created.removeAll(token)
})

describe('impact of a role change', () => {
  it('a changed permission set shows who is affected and what changes; cancel keeps the form, confirm saves', async () => {
    await page.goto(`/rolemanage/roleinfo?title=修改角色&isDisable=false&id=${ids.role}&isShow=true`)
    await tree(page).waitFor()
    await treeBox(page, '操作日志').click()
    await treeBox(page, '登录日志').click()
    await save()
    await dialog().waitFor()
    expect(await dialog().getByTestId('role-impact').textContent()).toContain('此修改将影响 1 个用户')
    expect(await dialog().getByTestId('impact-gained').textContent()).toBe('新增权限（1）操作日志')
    expect(await dialog().getByTestId('impact-lost').textContent()).toBe('移除权限（1）登录日志')
    expect(impactCalls.at(-1)).toEqual({
      roleId: ids.role,
      authCodes: expect.arrayContaining(['monitor', 'operlog']),
    })
    await dialogShot('role-impact-dialog-light')

    await dialog()
      .getByRole('button', { name: /取\s*消/ })
      .click()
    await dialog().waitFor({ state: 'hidden' })
    expect(await isTreeChecked(page, '操作日志')).toBe(true)
    expect(await isTreeChecked(page, '登录日志')).toBe(false)
    expect(await held(ids.role)).toEqual(['loginlog', 'monitor'])

    await save()
    await dialog()
      .getByRole('button', { name: /确认保存/ })
      .click()
    await toast(page, '修改成功')
    await page.waitForURL((u) => u.pathname === '/rolemanage')
    expect(await held(ids.role)).toEqual(['monitor', 'operlog'])
  })

  it('a change of name only is saved without the dialog', async () => {
    const before = impactCalls.length
    await page.goto(`/rolemanage/roleinfo?title=修改角色&isDisable=false&id=${ids.role}&isShow=true`)
    await tree(page).waitFor()
    await page.getByPlaceholder('请输入角色名称').fill(`${names.role}改`)
    await save()
    await toast(page, '修改成功')
    await page.waitForURL((u) => u.pathname === '/rolemanage')
    expect(impactCalls.length).toBe(before)
    expect(await dialog().count()).toBe(0)
    const detail = await ok(api<{ roleName: string }>('GET', `/role/detail?id=${ids.role}`, { token }))
    expect(detail.roleName).toBe(`${names.role}改`)
  })

  it('the built-in role form asks too (dark theme)', async () => {
    await page.goto(
      `/adminrolemanage/adminroleinfo?title=修改内置角色&id=${ids.adminRole}&isDisable=false&isShow=true`,
    )
    await useTheme('dark')
    await tree(page).waitFor()
    await treeBox(page, '在线用户').click()
    await save()
    await dialog().waitFor()
    expect(await dialog().getByTestId('impact-gained').textContent()).toBe('新增权限（1）在线用户')
    expect(await dialog().getByTestId('impact-lost').count()).toBe(0)
    await dialogShot('role-impact-dialog-dark')
    await dialog()
      .getByRole('button', { name: /确认保存/ })
      .click()
    await toast(page, '修改成功')
    await poll(() => held(ids.adminRole)).toEqual(['loginlog', 'monitor', 'online'])
    await useTheme('light')
  })

  it('a disabled node added to the role is listed as power that comes alive once enabled (both themes)', async () => {
    const code = await ok(
      api<string>('POST', '/auth/insert', {
        token,
        body: {
          chName: names.node,
          enName: `ri${s}off`,
          parentCode: 'monitor',
          seq: 99,
          status: 2,
          type: 3,
          frontEndAccessList: '',
          urlPatternInfos: [{ method: 'GET', uri: `/ri${s}/secret` }],
        },
      }),
    )
    created.remember(`/auth/delete?authCode=${code}`)
    const before = await held(ids.role)
    for (const mode of ['light', 'dark'] as const) {
      await page.goto(`/rolemanage/roleinfo?title=修改角色&isDisable=false&id=${ids.role}&isShow=true`)
      if (mode === 'dark') await useTheme('dark')
      await tree(page).waitFor()
      await treeBox(page, names.node).click()
      await save()
      await dialog().waitFor()
      expect(await dialog().getByTestId('impact-dormant').textContent()).toBe(
        `已停用、启用后生效的权限（1）：这些权限点已停用，保存后角色将持有它们，一旦启用，上述用户即获得这些权限。${names.node}`,
      )
      expect(await dialog().getByTestId('impact-gained').count()).toBe(0)
      await dialogShot(`role-impact-dormant-${mode}`)
      await dialog()
        .getByRole('button', { name: /取\s*消/ })
        .click()
      await dialog().waitFor({ state: 'hidden' })
    }
    await useTheme('light')
    expect(await held(ids.role)).toEqual(before)
  })
})
