import type { Browser, ConsoleMessage, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchBrowser, newPage, signIn } from './helpers'

// A form sent with its fields wrong shows its messages on the screen and leaves the browser console
// without an error or a warning (SPEC.md §5 has the refusal logged, as information).

let browser: Browser
let page: Page
const noise: string[] = []

beforeAll(async () => {
  browser = await launchBrowser()
  page = await newPage(browser, { width: 1280, height: 800 })
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'error' || message.type() === 'warning')
      noise.push(`${message.type()}: ${message.text()}`)
  })
  page.on('pageerror', (error) => noise.push(`pageerror: ${error.message}`))
  await signIn(page)
})
afterAll(async () => browser?.close())

const SAVE = /^(保\s*存|创\s*建)$/

/** Each form with its fields left empty (or blank), and a message it must show. */
const FORMS = [
  { address: '/usermanage/adduser', message: '必须输入用户昵称' },
  { address: '/rolemanage/addrole?isShow=true', message: '必须输入角色名称' },
  { address: '/usergroupmanage/addusergroup', message: '必须输入用户组名称' },
  { address: '/stationmanage/addstation', message: '必须输入职位名称' },
  { address: '/orgmanage/orgaddform', message: '请输入部门名称' },
  { address: '/authmanage/addform', message: '请输入英文名' },
]

describe('a failed form', { timeout: 120_000 }, () => {
  it('shows its messages and leaves no error or warning in the console', async () => {
    for (const form of FORMS) {
      noise.length = 0
      await page.goto(form.address)
      await page.waitForLoadState('networkidle')
      await page.getByRole('button', { name: SAVE }).first().click()
      await page.getByText(form.message).first().waitFor()
      expect(noise, form.address).toEqual([])
    }
  })
})
