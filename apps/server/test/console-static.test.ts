import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import zlib from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from './helpers/app'

/**
 * DESIGN.md §12: the console goes out compressed (the build's .br and .gz copies, chosen by the
 * client's accept-encoding), its hashed bundles cached for good, its page checked on every load.
 */
let t: TestApp
let webDist: string
const BUNDLE = `export const rows = ${JSON.stringify(Array.from({ length: 200 }, (_, i) => `row ${i}`))}\n`
const PAGE = '<!doctype html><title>console</title><div id="root"></div>'

beforeAll(async () => {
  webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'amg-web-'))
  fs.writeFileSync(path.join(webDist, 'index.html'), PAGE)
  fs.mkdirSync(path.join(webDist, 'static'))
  const bundle = path.join(webDist, 'static', 'x-abc123.js')
  fs.writeFileSync(bundle, BUNDLE)
  // each copy marked, so the test sees the server sent the build's copy rather than compressing anew
  fs.writeFileSync(`${bundle}.br`, zlib.brotliCompressSync(`${BUNDLE}// br`))
  fs.writeFileSync(`${bundle}.gz`, zlib.gzipSync(`${BUNDLE}// gz`))
  t = await createTestApp({ webDist })
})
afterAll(async () => {
  await t.close()
  fs.rmSync(webDist, { recursive: true, force: true })
})

const get = (url: string, encoding?: string) =>
  t.app.inject({ method: 'GET', url, headers: encoding ? { 'accept-encoding': encoding } : {} })

describe('the console bundles', () => {
  it('go out as the build compressed them: brotli when accepted, else gzip', async () => {
    const br = await get('/static/x-abc123.js', 'gzip, deflate, br')
    expect(br.statusCode).toBe(200)
    expect(br.headers['content-encoding']).toBe('br')
    expect(br.headers['content-type']).toContain('javascript')
    expect(br.headers.vary).toContain('accept-encoding')
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(`${BUNDLE}// br`)

    const gzip = await get('/static/x-abc123.js', 'gzip')
    expect(gzip.headers['content-encoding']).toBe('gzip')
    expect(zlib.gunzipSync(gzip.rawPayload).toString()).toBe(`${BUNDLE}// gz`)

    const plain = await get('/static/x-abc123.js')
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(plain.body).toBe(BUNDLE)
  })

  it('are cached for a year, immutable, whatever the encoding', async () => {
    for (const encoding of ['br', 'gzip', undefined]) {
      const res = await get('/static/x-abc123.js', encoding)
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    }
  })

  it('a bundle that is not there is a 404, not the console page', async () => {
    const res = await get('/static/x-gone99.js', 'br')
    expect(res.statusCode).toBe(404)
    expect(res.headers['content-type']).not.toContain('text/html')
  })
})

describe('the console page', () => {
  it('is checked again on every load: at /, as /index.html and for deep links', async () => {
    for (const url of ['/', '/index.html', '/usermanage', '/usermanage/userinfo/userbaseinfo?id=1']) {
      const res = await get(url, 'br')
      expect([url, res.statusCode]).toEqual([url, 200])
      expect(res.headers['content-type']).toContain('text/html')
      expect(res.headers['cache-control']).toBe('no-cache')
      const body =
        res.headers['content-encoding'] === 'br' ? zlib.brotliDecompressSync(res.rawPayload) : res.rawPayload
      expect(body.toString()).toBe(PAGE)
    }
  })
})
