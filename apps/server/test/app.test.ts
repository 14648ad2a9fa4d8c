import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MSG } from '@amg/contract'
import { createTestApp, type TestApp } from './helpers/app'

let t: TestApp
let webDist: string
beforeAll(async () => {
  webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'amg-web-'))
  fs.writeFileSync(
    path.join(webDist, 'index.html'),
    '<!doctype html><title>console</title><div id="root"></div>',
  )
  fs.mkdirSync(path.join(webDist, 'static'))
  fs.writeFileSync(path.join(webDist, 'static', 'app.js'), 'console.log(1)')
  t = await createTestApp({ webDist })
})
afterAll(async () => {
  await t.close()
  fs.rmSync(webDist, { recursive: true, force: true })
})

describe('envelope and errors', () => {
  it('answers unknown /api paths with a 404 envelope, even without a session', async () => {
    const res = await t.call('GET', '/api/no/such/thing')
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ code: 404, msg: MSG.notFoundApi, data: null })
  })

  it('answers malformed JSON with a 400 and a Chinese message', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"nickName": ',
    })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({ code: 400, msg: MSG.badJson, data: null })
  })

  it('treats an empty JSON body as no body', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/user/current',
      headers: { 'content-type': 'application/json', 'x-auth-token': t.adminToken },
      payload: '',
    })
    expect(res.statusCode).toBe(200)
    const post = await t.app.inject({
      method: 'POST',
      url: '/api/logout',
      headers: { 'content-type': 'application/json' },
      payload: '',
    })
    expect(post.statusCode).toBe(200)
  })

  it('refuses prototype poisoning in JSON bodies', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"nickName":"admin","password":"x","__proto__":{"admin":true}}',
    })
    expect(res.statusCode).toBe(400)
    expect(res.json().code).toBe(400)
  })

  it('answers wrong types with a 400 naming the field', async () => {
    const res = await t.call('POST', '/api/login', { body: { nickName: { a: 1 }, password: 'x' } })
    expect(res.status).toBe(400)
    expect(res.body.code).toBe(400)
    expect(res.body.msg).toMatch(/[\u4e00-\u9fff]/)
  })

  it('sets the short security headers on JSON answers, including refusals and unknown paths', async () => {
    for (const url of ['/api/health', '/api/user/current', '/api/no-such-call']) {
      const res = await t.app.inject({ method: 'GET', url })
      expect(res.headers['content-type'], url).toContain('application/json')
      expect(res.headers['x-content-type-options'], url).toBe('nosniff')
      // nothing loads, nothing frames it, should a browser open it
      expect(res.headers['content-security-policy'], url).toBe("default-src 'none'; frame-ancestors 'none'")
      expect(res.headers['strict-transport-security'], url).toBeUndefined()
    }
  })

  it("sets Helmet's page headers on pages: the console and the API documentation", async () => {
    for (const url of ['/', '/usermanage', '/api/docs']) {
      const res = await t.app.inject({ method: 'GET', url })
      expect(res.headers['content-security-policy'], url).toContain("default-src 'self'")
      expect(res.headers['x-frame-options'], url).toBe('SAMEORIGIN')
      expect(res.headers['strict-transport-security'], url).toContain('max-age=')
      expect(res.headers['x-content-type-options'], url).toBe('nosniff')
    }
  })
})

describe('public calls', () => {
  it('health reports the database', async () => {
    const res = await t.call('GET', '/api/health')
    expect(res.status).toBe(200)
    expect(res.body.data.status).toBe('ok')
    expect(['pglite', 'postgres']).toContain(res.body.data.database)
  })

  it('config gives the console its runtime flags', async () => {
    const res = await t.call('GET', '/api/config')
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({ showOperatorUser: false, isAms: false, hideUserBaseInfo: false })
  })

  it('serves the OpenAPI document and its browsable page at /api/docs', async () => {
    const json = await t.app.inject({ method: 'GET', url: '/api/docs/json' })
    expect(json.statusCode).toBe(200)
    const doc = json.json()
    expect(doc.openapi).toMatch(/^3\./)
    expect(doc.paths['/api/login'].post.requestBody).toBeDefined()
    expect(doc.paths['/api/user/current'].get.summary).toBe('当前用户')
    // the routes that lead requests under /oidc to the provider are not the API's
    expect(Object.keys(doc.paths).filter((path) => /^\/oidc(\/|$)/.test(path))).toEqual([])
    const page = await t.app.inject({ method: 'GET', url: '/api/docs/' })
    expect(page.statusCode).toBe(200)
    expect(page.body).toContain('swagger')
  })
})

describe('the console', () => {
  it('is served at / with history fallback for deep links', async () => {
    const home = await t.app.inject({ method: 'GET', url: '/' })
    expect(home.statusCode).toBe(200)
    expect(home.body).toContain('<div id="root">')
    const deep = await t.app.inject({ method: 'GET', url: '/usermanage/userinfo/userbaseinfo?id=1' })
    expect(deep.statusCode).toBe(200)
    expect(deep.headers['content-type']).toContain('text/html')
    expect(deep.body).toContain('<div id="root">')
    const asset = await t.app.inject({ method: 'GET', url: '/static/app.js' })
    expect(asset.body).toBe('console.log(1)')
  })
})

describe('unexpected failures', () => {
  it('answer 500 with a generic Chinese message and no detail', async () => {
    const broken = await createTestApp()
    const token = broken.adminToken
    await broken.database.close() // the database goes away under a running server
    const res = await broken.call('GET', '/api/user/current', { token })
    expect(res.status).toBe(500)
    expect(res.body).toEqual({ code: 500, msg: MSG.serverError, data: null })
    await broken.app.close()
  })
})
