import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createdData } from './cleanup'
import { api, apiLogin, launchBrowser, newPage, screenshot, signIn } from './helpers'

/**
 * The 关联用户 pickers of a user group and of a position never offer a user who is already linked
 * (POST /user/namelist leaves them out), through every page of "加载更多" and after a new link.
 */

let browser: Browser
let page: Page
let token: string

const s = Date.now().toString(36)
const PREFIX = `lp${s}用户`
/** 12 users: one page of 10 candidates and a second one behind 加载更多. */
const NAMES = Array.from({ length: 12 }, (_, i) => `${PREFIX}${String(i + 1).padStart(2, '0')}`)
const userIds = new Map<string, number>()
let groupId: number
let positionId: number
const created = createdData()

async function ok<T>(res: Promise<{ status: number; code: number; msg: string; data: T }>): Promise<T> {
  const r = await res
  if (r.status !== 200 || r.code !== 200) throw new Error(`${r.status} ${r.code} ${r.msg}`)
  return r.data
}

const picker = () => page.locator('[data-testid="link-candidates"]:visible')
const candidateNames = async () =>
  (await picker().locator('tr.ant-table-row').allTextContents()).map((t) => t.match(/lp\S+用户\d\d/)?.[0])
const linkedRow = (name: string) =>
  page.locator('.amg-link-panel .ant-table-tbody tr.ant-table-row', { hasText: name })

/** Opens the picker, searches the prefix and loads every page; answers the names offered. */
async function offered(): Promise<string[]> {
  await page.getByRole('button', { name: '关联用户' }).click()
  await picker().waitFor()
  await picker()
    .getByPlaceholder(/用户昵称/)
    .fill(PREFIX)
  await picker()
    .getByPlaceholder(/用户昵称/)
    .press('Enter')
  const more = picker().getByRole('button', { name: /加载更多/ })
  const settled = async () => {
    await expect.poll(() => picker().locator('.ant-spin-spinning').count()).toBe(0)
    // every row is a searched one (not a row of the unfiltered first load)
    await expect
      .poll(async () => {
        const names = await candidateNames()
        return names.length > 0 && names.every(Boolean)
      })
      .toBe(true)
  }
  await settled()
  while (await more.isEnabled()) {
    const before = (await candidateNames()).length
    await more.click()
    await expect.poll(async () => (await candidateNames()).length).toBeGreaterThan(before)
    await settled()
  }
  return (await candidateNames()) as string[]
}

async function linkOne(name: string) {
  await picker().locator('tr.ant-table-row', { hasText: name }).getByRole('checkbox').check()
  await picker()
    .getByRole('button', { name: /^关\s*联$/ })
    .click()
  await linkedRow(name).waitFor()
}

/** What the server offers for the owner, every page at once. */
const serverCandidates = async (owner: Record<string, number>) =>
  (
    await ok(
      api<{ list: { nickName: string }[] }>('POST', '/user/namelist', {
        token,
        body: { ...owner, nickName: PREFIX, pageSize: 100 },
      }),
    )
  ).list.map((u) => u.nickName)

beforeAll(async () => {
  token = await apiLogin()
  for (const nickName of NAMES) {
    userIds.set(nickName, await ok(api<number>('POST', '/user/insert', { token, body: { nickName } })))
    created.remember(`/user/delete?userId=${userIds.get(nickName)}`)
  }
  // the group and the position start with the first user linked
  groupId = await ok(
    api<number>('POST', '/user_groups/insert', {
      token,
      body: { groupName: `lp${s}组`, status: 1, description: '', userIds: String(userIds.get(NAMES[0])) },
    }),
  )
  created.remember(`/user_groups/delete?userGroupsId=${groupId}`)
  const [root] = await ok(api<{ id: number }[]>('GET', '/org/tree', { token }))
  const orgId = await ok(
    api<number>('POST', '/org/insert', { token, body: { organizationName: `lp${s}部门`, parent: root.id } }),
  )
  created.remember(`/org/delete?orgId=${orgId}`)
  const stationId = await ok(
    api<number>('POST', '/station/insert', {
      token,
      body: { stationName: `lp${s}职位`, type: 1, orgIds: [orgId] },
    }),
  )
  created.remember(`/station/delete?stationId=${stationId}`)
  const positions = await ok(
    api<{ list: { id: number }[] }>('POST', '/position/list', {
      token,
      body: { orgId, pageNum: 1, pageSize: 10 },
    }),
  )
  positionId = positions.list[0].id
  await ok(
    api('PUT', '/rel/position-rel-user', { token, body: { positionId, userIds: [userIds.get(NAMES[0])] } }),
  )
  browser = await launchBrowser()
  page = await newPage(browser)
  await signIn(page)
})

afterAll(async () => {
  await browser?.close()
  await created.removeAll(token)
})

describe('关联用户 pickers leave out linked users', () => {
  it('user group: the linked user is never offered, on any page, nor a user just linked', async () => {
    await page.goto(
      `/usergroupmanage/usergroupinfo?isDisable=false&id=${groupId}&isShow=true&tab=usergroupuserrel`,
    )
    await linkedRow(NAMES[0]).waitFor()
    expect(await offered()).toEqual(NAMES.slice(1))
    await screenshot(page, 'link-pickers-group')
    await linkOne(NAMES[1])
    // ten left: one page, 加载更多 disabled
    expect(await offered()).toEqual(NAMES.slice(2))
    expect(await serverCandidates({ userGroupId: groupId })).toEqual(NAMES.slice(2))
  })

  it('position: the linked user is never offered, on any page, nor a user just linked', async () => {
    await page.goto(`/positionmanage/positioninfo/userform?id=${positionId}&title=lp`)
    await linkedRow(NAMES[0]).waitFor()
    expect(await offered()).toEqual(NAMES.slice(1))
    await linkOne(NAMES[5])
    const after = await offered()
    expect(after).not.toContain(NAMES[0])
    expect(after).not.toContain(NAMES[5])
    expect(after).toHaveLength(10)
    await screenshot(page, 'link-pickers-position')
    expect(await serverCandidates({ positionId })).toEqual(after)
  })
})
