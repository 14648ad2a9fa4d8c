// DESIGN.md §12: sign-in → first row of the user list < 1 s in headless Chromium. Starts the built
// system as the end-to-end runs do (the console from apps/web/dist: `npm run build` first, an
// embedded database in a temporary folder), then, in a fresh browser context each time (nothing
// cached), fills the sign-in form, starts the clock on 登录, opens 用户管理 from the side menu and
// stops it when the first row shows. Prints the median of 5. Not a test: `npm run bench` calls
// measureFirstRow(); on its own: `npx tsx e2e/measure-first-row.ts [runs]`.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { chromium, type Browser } from 'playwright-core'
import { startBuiltServer } from './global-setup'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const ADMIN = { nickName: 'admin', password: 'Admin@123456' }

export interface FirstRowMeasure {
  /** median of the runs, milliseconds */
  medianMs: number
  runsMs: number[]
}

export interface MeasureOptions {
  runs?: number
  /** the built console to serve (default apps/web/dist) */
  webDist?: string
  /** measure a system already running there instead of starting one (it must accept ADMIN) */
  baseURL?: string
}

/** The built server on a free port with a throw-away database; answers its address and a stop function. */
async function startServer(webDist: string) {
  if (!fs.existsSync(path.join(webDist, 'index.html')))
    throw new Error(`no built console in ${webDist}: run npm run build first`)
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'amg-measure-'))
  // the sign-in hashes at the production cost: part of what this measures
  const server = await startBuiltServer(webDist, dataDir, ADMIN.password, { passwordHashCost: 17 })
  return {
    baseURL: server.baseURL,
    async stop() {
      await server.stop()
      fs.rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/** One sign-in → first user row, in a fresh context (cold cache), in milliseconds. */
async function once(browser: Browser, baseURL: string): Promise<number> {
  const context = await browser.newContext({
    baseURL,
    viewport: { width: 1440, height: 900 },
    locale: 'zh-CN',
  })
  try {
    const page = await context.newPage()
    await page.goto('/')
    // the sign-in page as a person finds it: loaded and settled (the screens' code fetched in the
    // background) by the time they have typed their name and password
    await page.waitForLoadState('networkidle')
    await page.getByPlaceholder('用户昵称').fill(ADMIN.nickName)
    await page.getByPlaceholder('密码').fill(ADMIN.password)
    const started = performance.now()
    await page.getByRole('button', { name: /登\s*录/ }).click()
    await page.waitForURL('**/body')
    // the side menu starts folded: unfold it, then 用户管理
    await page.getByRole('button', { name: '展开菜单' }).click()
    await page.getByTestId('side-menu').getByRole('menuitem', { name: '用户管理' }).click()
    await page.locator('.ant-table-tbody tr.ant-table-row').first().waitFor()
    return performance.now() - started
  } finally {
    await context.close()
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

export async function measureFirstRow(options: MeasureOptions = {}): Promise<FirstRowMeasure> {
  const runs = options.runs ?? 5
  const server = options.baseURL
    ? { baseURL: options.baseURL, stop: async () => {} }
    : await startServer(path.resolve(options.webDist ?? path.join(root, 'apps/web/dist')))
  // the system's Chromium with the flags of the end-to-end runs (e2e/helpers.ts)
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-dev-shm-usage',
    ],
  })
  try {
    // one run first to warm the server (its caches, the database's first queries); not counted
    await once(browser, server.baseURL)
    const runsMs: number[] = []
    for (let i = 0; i < runs; i++) runsMs.push(Math.round(await once(browser, server.baseURL)))
    return { medianMs: median(runsMs), runsMs }
  } finally {
    await browser.close()
    await server.stop()
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await measureFirstRow({ runs: Number(process.argv[2]) || 5 })
  console.log(JSON.stringify({ signInToFirstUserRowMs: result.medianMs, runsMs: result.runsMs }))
}
