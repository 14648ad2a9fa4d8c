import type { Browser, Response } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchBrowser, newPage, signIn } from './helpers'

/**
 * DESIGN.md §12, as the browser receives it: the console's scripts arrive compressed and cached for
 * good, its page is checked on every load. (How fast it is, is measured by e2e/measure-first-row.ts,
 * not asserted here: timings on a shared machine are no test.)
 */

let browser: Browser
beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
})

const isScript = (res: Response) =>
  new URL(res.url()).pathname.startsWith('/static/') && res.url().endsWith('.js')

describe('console delivery', () => {
  it('sends the entry script compressed and immutable, the page itself no-cache', async () => {
    const page = await newPage(browser)
    const scripts: Response[] = []
    page.on('response', (res) => {
      if (isScript(res)) scripts.push(res)
    })
    const document = await page.goto('/')
    await page.getByPlaceholder('用户昵称').waitFor()
    expect(document?.headers()['cache-control']).toBe('no-cache')

    const entry = await page.locator('script[type="module"][src]').getAttribute('src')
    expect(entry).toMatch(/^\/static\/.+\.js$/)
    const entryResponse = scripts.find((res) => new URL(res.url()).pathname === entry)
    expect(entryResponse, `no response for ${entry}`).toBeDefined()
    const headers = entryResponse!.headers()
    expect(['br', 'gzip']).toContain(headers['content-encoding'])
    expect(headers['cache-control']).toBe('public, max-age=31536000, immutable')
    // the entry's own imports too (modulepreload)
    for (const res of scripts)
      expect([res.url(), res.headers()['cache-control']]).toEqual([res.url(), headers['cache-control']])
    await page.context().close()
  })

  it('loads the screens apart from the first download, compressed and immutable as well', async () => {
    const page = await newPage(browser)
    const scripts: Response[] = []
    page.on('response', (res) => {
      if (isScript(res)) scripts.push(res)
    })
    // what index.html loads at once; everything else is a screen's code, loaded later
    const html = await (await page.request.get('/')).text()
    const first = new Set([...html.matchAll(/(?:src|href)="(\/static\/[^"]+\.js)"/g)].map((m) => m[1]))
    await signIn(page)
    await page.getByRole('button', { name: '展开菜单' }).click()
    await page.getByTestId('side-menu').getByRole('menuitem', { name: '用户管理' }).click()
    await page.locator('.ant-table-tbody tr.ant-table-row').first().waitFor()

    const later = scripts.filter((res) => !first.has(new URL(res.url()).pathname))
    expect(later.length).toBeGreaterThan(0)
    for (const res of later) {
      const headers = res.headers()
      expect([res.url(), headers['cache-control']]).toEqual([
        res.url(),
        'public, max-age=31536000, immutable',
      ])
      if (Number(headers['content-length'] ?? Infinity) > 1024)
        expect([res.url(), headers['content-encoding']]).toEqual([
          res.url(),
          expect.stringMatching(/^(br|gzip)$/),
        ])
    }
    await page.context().close()
  })
})
