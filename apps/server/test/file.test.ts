import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { FILE_MSG, MSG, uploadTooLarge } from '@amg/contract'
import { files } from '../src/db/schema'
import { filesDir } from '../src/modules/file/service'
import { ORPHAN_GRACE_MS, sweepExpiredFiles } from '../src/modules/file/sweep'
import { createTestApp, type TestApp } from './helpers/app'

let t: TestApp
beforeAll(async () => {
  // 1 MB limit so the size check is cheap to reach; a fast sweep so the timer can be seen working
  t = await createTestApp({ uploadMaxMb: 1, fileSweepSeconds: 0.2 })
})
afterAll(async () => t.close())

type Part = string | { name: string; content: string | Uint8Array; type?: string }

/** A multipart body as a browser sends it: bytes plus the content-type with its boundary. */
async function form(parts: [string, Part][]) {
  const fd = new FormData()
  for (const [field, value] of parts) {
    if (typeof value === 'string') fd.append(field, value)
    else
      fd.append(
        field,
        new Blob([value.content as Uint8Array<ArrayBuffer> | string], {
          type: value.type ?? 'application/octet-stream',
        }),
        value.name,
      )
  }
  const res = new Response(fd)
  return {
    body: Buffer.from(await res.arrayBuffer()),
    headers: { 'content-type': res.headers.get('content-type')! },
  }
}

async function upload(parts: [string, Part][], token: string | null = t.adminToken) {
  const { body, headers } = await form(parts)
  return t.call('POST', '/api/file-manage/upload-one-step', { token, body, headers })
}

const storedNames = () =>
  fs.existsSync(filesDir(t.config.dataDir)) ? fs.readdirSync(filesDir(t.config.dataDir)) : []
const rowCount = async () => (await t.db.select({ id: files.id }).from(files)).length

describe('POST /file-manage/upload-one-step', () => {
  it('stores the file under DATA_DIR/files with its metadata and answers fileId, fileName, size, url, expireTime', async () => {
    const content = '你好，世界 hello'
    const before = Date.now()
    const res = await upload([
      ['keepTime', '30m'],
      ['file', { name: '季度报告.txt', content, type: 'text/plain' }],
    ])
    expect(res.status).toBe(200)
    expect(res.body.code).toBe(200)
    const data = res.body.data
    expect(data).toMatchObject({ fileName: '季度报告.txt', size: Buffer.byteLength(content) })
    expect(data.url).toBe(`/api/file-manage/download?fileId=${data.fileId}`)
    const expire = new Date(data.expireTime).getTime()
    expect(expire).toBeGreaterThanOrEqual(before + 30 * 60_000 - 1000)
    expect(expire).toBeLessThanOrEqual(Date.now() + 30 * 60_000 + 1000)

    const [row] = await t.db.select().from(files).where(eq(files.id, data.fileId))
    expect(row).toMatchObject({
      fileName: '季度报告.txt',
      mimeType: 'text/plain',
      size: Buffer.byteLength(content),
    })
    expect(row.expireTime.getTime()).toBe(expire)
    expect(row.storageName).toMatch(/^[0-9a-f]{32}$/)
    expect(fs.readFileSync(path.join(filesDir(t.config.dataDir), row.storageName), 'utf8')).toBe(content)
  })

  it('keeps a file 1h by default and 7d when asked, whatever the order of the parts', async () => {
    const def = await upload([['file', { name: 'a.bin', content: new Uint8Array([1, 2, 3]) }]])
    expect(def.status).toBe(200)
    expect(new Date(def.body.data.expireTime).getTime() - Date.now()).toBeGreaterThan(59 * 60_000)
    expect(new Date(def.body.data.expireTime).getTime() - Date.now()).toBeLessThanOrEqual(60 * 60_000)

    const week = await upload([
      ['file', { name: 'b.bin', content: 'x' }],
      ['keepTime', '7d'],
    ])
    expect(week.status).toBe(200)
    expect(new Date(week.body.data.expireTime).getTime() - Date.now()).toBeGreaterThan(
      7 * 86_400_000 - 60_000,
    )
  })

  it('refuses any other keepTime with 400 and keeps nothing, before or after the file part', async () => {
    const rows = await rowCount()
    const stored = storedNames().length
    for (const parts of [
      [
        ['keepTime', '2h'],
        ['file', { name: 'c.txt', content: 'c' }],
      ],
      [
        ['file', { name: 'c.txt', content: 'c' }],
        ['keepTime', '1d'],
      ],
    ] as [string, Part][][]) {
      const res = await upload(parts)
      expect(res.status).toBe(400)
      expect(res.body).toMatchObject({ code: 400, msg: FILE_MSG.keepTimeInvalid })
    }
    expect(await rowCount()).toBe(rows)
    expect(storedNames().length).toBe(stored)
  })

  it('answers 413 with the configured limit when the file is too large, and keeps nothing', async () => {
    const rows = await rowCount()
    const stored = storedNames().length
    const res = await upload([['file', { name: 'big.bin', content: new Uint8Array(1024 * 1024 + 10) }]])
    expect(res.status).toBe(413)
    expect(res.body).toEqual({ code: 413, msg: uploadTooLarge(1), data: null })
    expect(res.body.msg).toBe('上传文件大小不能超过 1MB!')
    expect(await rowCount()).toBe(rows)
    expect(storedNames().length).toBe(stored)
  })

  it('accepts a file of exactly the limit', async () => {
    const res = await upload([['file', { name: 'edge.bin', content: new Uint8Array(1024 * 1024) }]])
    expect(res.status).toBe(200)
    expect(res.body.data.size).toBe(1024 * 1024)
  })

  it('answers 400 without a file part, or with an empty file input', async () => {
    const none = await upload([['keepTime', '1h']])
    expect(none.status).toBe(400)
    expect(none.body.msg).toBe(FILE_MSG.fileRequired)
    const empty = await upload([['file', { name: '', content: '' }]])
    expect(empty.status).toBe(400)
    expect(empty.body.msg).toBe(FILE_MSG.fileRequired)
  })

  it('answers 400 for two files at once and keeps nothing', async () => {
    const rows = await rowCount()
    const res = await upload([
      ['file', { name: 'one.txt', content: '1' }],
      ['file', { name: 'two.txt', content: '2' }],
    ])
    expect(res.status).toBe(400)
    expect(res.body.msg).toBe(FILE_MSG.tooManyFiles)
    expect(await rowCount()).toBe(rows)
  })

  it('answers 415 with a Chinese message for a request that is not multipart, never 500', async () => {
    const json = await t.call('POST', '/api/file-manage/upload-one-step', {
      token: t.adminToken,
      body: { file: 'x' },
    })
    expect(json.status).toBe(415)
    expect(json.body.msg).toBe(FILE_MSG.notMultipart)
    const text = await t.call('POST', '/api/file-manage/upload-one-step', {
      token: t.adminToken,
      body: 'hello',
      headers: { 'content-type': 'text/plain' },
    })
    expect(text.status).toBe(415)
    expect(text.body.msg).toBe(FILE_MSG.notMultipart)
    const nothing = await t.call('POST', '/api/file-manage/upload-one-step', { token: t.adminToken })
    expect(nothing.status).toBe(415)
    const xml = await t.call('POST', '/api/file-manage/upload-one-step', {
      token: t.adminToken,
      body: '<a/>',
      headers: { 'content-type': 'application/xml' },
    })
    expect(xml.status).toBe(415)
    expect(xml.body.code).toBe(415)
  })

  it('answers 400 for a malformed multipart body', async () => {
    const truncated = await form([['file', { name: 'x.txt', content: 'some content' }]])
    for (const [body, contentType] of [
      [truncated.body.subarray(0, truncated.body.length - 20), truncated.headers['content-type']],
      [Buffer.from('garbage'), 'multipart/form-data; boundary=abc'],
      [Buffer.from('garbage'), 'multipart/form-data'],
    ] as [Buffer, string][]) {
      const res = await t.call('POST', '/api/file-manage/upload-one-step', {
        token: t.adminToken,
        body,
        headers: { 'content-type': contentType },
      })
      expect(res.status).toBe(400)
      expect(res.body.code).toBe(400)
      expect(res.body.msg).toMatch(/[\u4e00-\u9fa5]/)
    }
  })

  it('needs a session (401) and the file:upload permission (403)', async () => {
    const anonymous = await upload([['file', { name: 'a.txt', content: 'a' }]], null)
    expect(anonymous.status).toBe(401)
    expect(anonymous.body.msg).toBe(MSG.unauthorized)
    const other = await t.userWithCodes(['file:download'])
    const denied = await upload([['file', { name: 'a.txt', content: 'a' }]], other.token)
    expect(denied.status).toBe(403)
    const uploader = await t.userWithCodes(['file:upload'])
    const allowed = await upload([['file', { name: 'a.txt', content: 'a' }]], uploader.token)
    expect(allowed.status).toBe(200)
    const [row] = await t.db.select().from(files).where(eq(files.id, allowed.body.data.fileId))
    expect(row.uploaderId).toBe(uploader.id)
  })
})

describe('GET /file-manage/download', () => {
  it('answers the bytes with the content type and an RFC 5987 content-disposition for Chinese names', async () => {
    const bytes = new Uint8Array([0, 1, 2, 250, 251, 252])
    const up = await upload([
      ['file', { name: '员工 名单(2024).bin', content: bytes, type: 'application/x-demo' }],
    ])
    const res = await t.app.inject({
      method: 'GET',
      url: up.body.data.url,
      headers: { 'x-auth-token': t.adminToken },
    })
    expect(res.statusCode).toBe(200)
    expect(Buffer.compare(res.rawPayload, Buffer.from(bytes))).toBe(0)
    expect(res.headers['content-type']).toBe('application/x-demo')
    expect(res.headers['content-length']).toBe(String(bytes.length))
    const disposition = String(res.headers['content-disposition'])
    expect(disposition).toMatch(/^attachment; filename="[\x20-\x7e]+"; filename\*=UTF-8''/)
    const encoded = disposition.split("filename*=UTF-8''")[1]
    expect(encoded).not.toMatch(/[()'*\s]/)
    expect(decodeURIComponent(encoded)).toBe('员工 名单(2024).bin')
  })

  it('answers 404 as JSON for an unknown id, an expired file, and a file gone from disk; 400 for a bad id', async () => {
    const unknown = await t.call('GET', '/api/file-manage/download', {
      token: t.adminToken,
      query: { fileId: 999999 },
    })
    expect(unknown.status).toBe(404)
    expect(unknown.body).toEqual({ code: 404, msg: FILE_MSG.fileNotFound, data: null })

    const up = await upload([['file', { name: 'soon.txt', content: 'x' }]])
    await t.db
      .update(files)
      .set({ expireTime: new Date(Date.now() - 1000) })
      .where(eq(files.id, up.body.data.fileId))
    const expired = await t.call('GET', up.body.data.url, { token: t.adminToken })
    expect(expired.status).toBe(404)
    expect(expired.body.msg).toBe(FILE_MSG.fileNotFound)

    const gone = await upload([['file', { name: 'gone.txt', content: 'x' }]])
    const [row] = await t.db.select().from(files).where(eq(files.id, gone.body.data.fileId))
    fs.rmSync(path.join(filesDir(t.config.dataDir), row.storageName))
    const missing = await t.call('GET', gone.body.data.url, { token: t.adminToken })
    expect(missing.status).toBe(404)

    for (const fileId of ['abc', '0', '']) {
      const bad = await t.call('GET', '/api/file-manage/download', { token: t.adminToken, query: { fileId } })
      expect(bad.status).toBe(400)
      expect(bad.body.msg).toBe(FILE_MSG.fileIdRequired)
    }
  })

  it('needs a session (401) and the file:download permission (403)', async () => {
    const up = await upload([['file', { name: 'p.txt', content: 'perm' }]])
    expect((await t.call('GET', up.body.data.url)).status).toBe(401)
    const other = await t.userWithCodes(['file:upload'])
    expect((await t.call('GET', up.body.data.url, { token: other.token })).status).toBe(403)
    const reader = await t.userWithCodes(['file:download'])
    const res = await t.call('GET', up.body.data.url, { token: reader.token })
    expect(res.status).toBe(200)
    expect(res.raw).toBe('perm')
  })
})

describe('sweep of expired files', () => {
  it('removes expired rows and their files, keeps the rest, and removes old leftovers without a row', async () => {
    const keep = await upload([
      ['file', { name: 'keep.txt', content: 'k' }],
      ['keepTime', '7d'],
    ])
    const drop = await upload([
      ['file', { name: 'drop.txt', content: 'd' }],
      ['keepTime', '30m'],
    ])
    const [dropRow] = await t.db.select().from(files).where(eq(files.id, drop.body.data.fileId))
    const [keepRow] = await t.db.select().from(files).where(eq(files.id, keep.body.data.fileId))
    const dir = filesDir(t.config.dataDir)
    const leftover = path.join(dir, 'leftover-of-an-interrupted-upload')
    fs.writeFileSync(leftover, 'x')
    const fresh = path.join(dir, 'upload-in-progress')
    fs.writeFileSync(fresh, 'y')

    // two hours from now: the 30m and 1h files have expired, the 7d one has not
    const later = new Date(Date.now() + 2 * 3600_000)
    fs.utimesSync(fresh, later, new Date(later.getTime() - ORPHAN_GRACE_MS / 2))
    const result = await sweepExpiredFiles(t.db, t.config.dataDir, later)
    expect(result.expired).toBeGreaterThanOrEqual(1)

    expect(await t.db.select().from(files).where(eq(files.id, dropRow.id))).toHaveLength(0)
    expect(fs.existsSync(path.join(dir, dropRow.storageName))).toBe(false)
    expect(await t.db.select().from(files).where(eq(files.id, keepRow.id))).toHaveLength(1)
    expect(fs.existsSync(path.join(dir, keepRow.storageName))).toBe(true)
    expect(fs.existsSync(leftover)).toBe(false)
    expect(fs.existsSync(fresh)).toBe(true)
    const remaining = await t.db.select({ expireTime: files.expireTime }).from(files)
    expect(remaining.every((r) => r.expireTime > later)).toBe(true)
    fs.rmSync(fresh)
  })

  it('runs periodically in the app (FILE_SWEEP_SECONDS)', async () => {
    const up = await upload([['file', { name: 'timer.txt', content: 't' }]])
    const [row] = await t.db.select().from(files).where(eq(files.id, up.body.data.fileId))
    await t.db
      .update(files)
      .set({ expireTime: new Date(Date.now() - 1000) })
      .where(eq(files.id, row.id))
    const deadline = Date.now() + 5000
    while (Date.now() < deadline && fs.existsSync(path.join(filesDir(t.config.dataDir), row.storageName))) {
      await new Promise((r) => setTimeout(r, 100))
    }
    expect(fs.existsSync(path.join(filesDir(t.config.dataDir), row.storageName))).toBe(false)
    expect(await t.db.select().from(files).where(eq(files.id, row.id))).toHaveLength(0)
  })
})

describe('OpenAPI', () => {
  it('lists both file routes', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' })
    const doc = res.json()
    expect(
      doc.paths['/api/file-manage/upload-one-step'].post.requestBody.content['multipart/form-data'],
    ).toBeTruthy()
    expect(doc.paths['/api/file-manage/download'].get.parameters[0].name).toBe('fileId')
  })
})
