import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { beyondPowerMessage, FILE_DOWNLOAD_ALL_CODE, FILE_MSG, MSG, uploadTooLarge } from '@amg/contract'
import { auths, files } from '../src/db/schema'
import { ORPHAN_GRACE_MS, sweepExpiredFiles } from '../src/modules/file/sweep'
import { createTestApp, type TestApp } from './helpers/app'
import { storedFiles } from './helpers/stored-files'

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

// under DATA_DIR/files on PGlite, in the database on PostgreSQL (DESIGN.md §19)
const stored = () => storedFiles(t)
const storedNames = () => stored().names()
const rowCount = async () => (await t.db.select({ id: files.id }).from(files)).length

describe('POST /file-manage/upload-one-step', () => {
  it('stores the file (DATA_DIR/files, or the database on PostgreSQL) with its metadata and answers fileId, fileName, size, url, expireTime', async () => {
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

    const [row] = await t.db.select().from(files).where(eq(files.publicId, data.fileId))
    expect(row).toMatchObject({
      fileName: '季度报告.txt',
      mimeType: 'text/plain',
      size: Buffer.byteLength(content),
    })
    expect(row.expireTime.getTime()).toBe(expire)
    expect(row.storageName).toMatch(/^[0-9a-f]{32}$/)
    expect((await stored().bytes(row.storageName))?.toString('utf8')).toBe(content)
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
    const storedBefore = (await storedNames()).length
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
    expect((await storedNames()).length).toBe(storedBefore)
  })

  it('answers 413 with the configured limit when the file is too large, and keeps nothing', async () => {
    const rows = await rowCount()
    const storedBefore = (await storedNames()).length
    const res = await upload([['file', { name: 'big.bin', content: new Uint8Array(1024 * 1024 + 10) }]])
    expect(res.status).toBe(413)
    expect(res.body).toEqual({ code: 413, msg: uploadTooLarge(1), data: null })
    expect(res.body.msg).toBe('上传文件大小不能超过 1MB!')
    expect(await rowCount()).toBe(rows)
    expect((await storedNames()).length).toBe(storedBefore)
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
    const [row] = await t.db.select().from(files).where(eq(files.publicId, allowed.body.data.fileId))
    expect(row.uploaderId).toBe(uploader.id)
  })
})

describe('GET /file-manage/download', () => {
  it('answers the bytes with the content type and an RFC 5987 content-disposition for Chinese names', async () => {
    const bytes = new Uint8Array([0, 1, 2, 250, 251, 252])
    const up = await upload([
      ['file', { name: '员工 名单(2024).zip', content: bytes, type: 'application/zip' }],
    ])
    const res = await t.app.inject({
      method: 'GET',
      url: up.body.data.url,
      headers: { 'x-auth-token': t.adminToken },
    })
    expect(res.statusCode).toBe(200)
    expect(Buffer.compare(res.rawPayload, Buffer.from(bytes))).toBe(0)
    expect(res.headers['content-type']).toBe('application/zip')
    expect(res.headers['content-length']).toBe(String(bytes.length))
    const disposition = String(res.headers['content-disposition'])
    expect(disposition).toMatch(/^attachment; filename="[\x20-\x7e]+"; filename\*=UTF-8''/)
    const encoded = disposition.split("filename*=UTF-8''")[1]
    expect(encoded).not.toMatch(/[()'*\s]/)
    expect(decodeURIComponent(encoded)).toBe('员工 名单(2024).zip')
  })

  it('answers 404 as JSON for an unknown id, an expired file, and a file gone from disk; 400 for a bad id', async () => {
    const unknown = await t.call('GET', '/api/file-manage/download', {
      token: t.adminToken,
      query: { fileId: randomUUID() },
    })
    expect(unknown.status).toBe(404)
    expect(unknown.body).toEqual({ code: 404, msg: FILE_MSG.fileNotFound, data: null })

    const up = await upload([['file', { name: 'soon.txt', content: 'x' }]])
    await t.db
      .update(files)
      .set({ expireTime: new Date(Date.now() - 1000) })
      .where(eq(files.publicId, up.body.data.fileId))
    const expired = await t.call('GET', up.body.data.url, { token: t.adminToken })
    expect(expired.status).toBe(404)
    expect(expired.body.msg).toBe(FILE_MSG.fileNotFound)

    const gone = await upload([['file', { name: 'gone.txt', content: 'x' }]])
    const [row] = await t.db.select().from(files).where(eq(files.publicId, gone.body.data.fileId))
    await stored().remove(row.storageName)
    const missing = await t.call('GET', gone.body.data.url, { token: t.adminToken })
    expect(missing.status).toBe(404)

    // the old sequential ids, and anything else that is not a random UUID
    for (const fileId of ['abc', '0', '1', '', `${randomUUID()}x`, randomUUID().replace(/-/g, '')]) {
      const bad = await t.call('GET', '/api/file-manage/download', { token: t.adminToken, query: { fileId } })
      expect(bad.status).toBe(400)
      expect(bad.body.msg).toBe(FILE_MSG.fileIdRequired)
    }
  })

  it('needs a session (401) and the file:download permission (403)', async () => {
    const uploader = await t.userWithCodes(['file:upload'])
    const up = await upload([['file', { name: 'p.txt', content: 'perm' }]], uploader.token)
    expect((await t.call('GET', up.body.data.url)).status).toBe(401)
    // its own uploader, without file:download
    expect((await t.call('GET', up.body.data.url, { token: uploader.token })).status).toBe(403)
  })
})

describe('who may download a file (DESIGN.md §11)', () => {
  const get = (url: string, token: string) => t.call('GET', url, { token })

  it('its uploader downloads it', async () => {
    const owner = await t.userWithCodes(['file:upload', 'file:download'])
    const up = await upload([['file', { name: 'mine.txt', content: 'mine' }]], owner.token)
    const res = await get(up.body.data.url, owner.token)
    expect(res.status).toBe(200)
    expect(res.raw).toBe('mine')
  })

  it('answers another file:download holder 404, exactly as for a file that does not exist', async () => {
    const owner = await t.userWithCodes(['file:upload', 'file:download'])
    const up = await upload([['file', { name: 'private.txt', content: 'secret' }]], owner.token)
    const other = await t.userWithCodes(['file:upload', 'file:download'])
    const theirs = await get(up.body.data.url, other.token)
    const unknown = await get(`/api/file-manage/download?fileId=${randomUUID()}`, other.token)
    expect(theirs.status).toBe(404)
    expect(theirs.body).toEqual({ code: 404, msg: FILE_MSG.fileNotFound, data: null })
    expect(theirs.body).toEqual(unknown.body)
    expect(theirs.raw).not.toContain('secret')
    // the admin's files too: holding file:download is not enough for anyone else's
    const adminFile = await upload([['file', { name: 'admin.txt', content: 'a' }]])
    expect((await get(adminFile.body.data.url, other.token)).status).toBe(404)
  })

  it('lets a file:download-all holder and a super admin download anyone’s file', async () => {
    const owner = await t.userWithCodes(['file:upload', 'file:download'])
    const up = await upload([['file', { name: 'shared.txt', content: 'shared' }]], owner.token)
    const auditor = await t.userWithCodes(['file:download', FILE_DOWNLOAD_ALL_CODE])
    const byAuditor = await get(up.body.data.url, auditor.token)
    expect(byAuditor.status).toBe(200)
    expect(byAuditor.raw).toBe('shared')
    const byAdmin = await get(up.body.data.url, t.adminToken)
    expect(byAdmin.status).toBe(200)
    expect(byAdmin.raw).toBe('shared')
  })

  it('stops counting file:download-all once that node is disabled', async () => {
    const owner = await t.userWithCodes(['file:upload', 'file:download'])
    const up = await upload([['file', { name: 'later.txt', content: 'x' }]], owner.token)
    const auditor = await t.userWithCodes(['file:download', FILE_DOWNLOAD_ALL_CODE])
    expect((await get(up.body.data.url, auditor.token)).status).toBe(200)
    await t.db.update(auths).set({ status: 2 }).where(eq(auths.code, FILE_DOWNLOAD_ALL_CODE))
    await t.app.ctx.authz.invalidate()
    try {
      expect((await get(up.body.data.url, auditor.token)).status).toBe(404)
    } finally {
      await t.db.update(auths).set({ status: 1 }).where(eq(auths.code, FILE_DOWNLOAD_ALL_CODE))
      await t.app.ctx.authz.invalidate()
    }
  })

  it('seeds file:download-all as a button under file, with the download call', async () => {
    const [node] = await t.db.select().from(auths).where(eq(auths.code, FILE_DOWNLOAD_ALL_CODE))
    expect(node).toMatchObject({ parentCode: 'file', type: 3, chName: '下载所有人的文件', status: 1 })
    expect(node.urlPatternInfos).toEqual([{ method: 'GET', uri: '/file-manage/download' }])
  })

  it('cannot be granted by someone who holds only file:download (DESIGN.md §6a)', async () => {
    const manager = await t.userWithCodes(['role', 'role:add', 'file:upload', 'file:download'])
    const within = await t.call('POST', '/api/role/insert', {
      token: manager.token,
      body: { roleName: `own_${randomUUID()}`, authCodes: ['file:download'] },
    })
    expect(within.status).toBe(200)
    const beyond = await t.call('POST', '/api/role/insert', {
      token: manager.token,
      body: { roleName: `all_${randomUUID()}`, authCodes: [FILE_DOWNLOAD_ALL_CODE] },
    })
    expect(beyond.status).toBe(403)
    expect(beyond.body.msg).toBe(beyondPowerMessage(['下载所有人的文件']))
  })
})

describe('file ids', () => {
  it('are random UUIDs (122 random bits), never the row number, in no order', async () => {
    const ids: string[] = []
    for (let i = 0; i < 12; i++) {
      const up = await upload([['file', { name: `n${i}.txt`, content: String(i) }]])
      expect(up.status).toBe(200)
      ids.push(up.body.data.fileId)
    }
    const v4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
    for (const id of ids) expect(id).toMatch(v4)
    expect(new Set(ids).size).toBe(ids.length)
    // sequential ids would come out sorted; 12 random ones are sorted with chance 1/12!
    expect([...ids].sort()).not.toEqual(ids)
    const rows = await t.db.select({ id: files.id, publicId: files.publicId }).from(files)
    for (const id of ids) {
      const row = rows.find((r) => r.publicId === id)!
      expect(String(row.id)).not.toBe(id)
    }
    // a neighbour's id cannot be derived from one's own: no two ids share their random part
    const randomHex = ids.map((id) => id.replace(/-/g, ''))
    expect(new Set(randomHex.map((h) => h.slice(0, 8))).size).toBe(ids.length)
  })

  it('accepts the id in any letter case', async () => {
    const up = await upload([['file', { name: 'case.txt', content: 'c' }]])
    const res = await t.call('GET', '/api/file-manage/download', {
      token: t.adminToken,
      query: { fileId: up.body.data.fileId.toUpperCase() },
    })
    expect(res.status).toBe(200)
  })
})

describe('how files are served (DESIGN.md §11)', () => {
  async function served(name: string, type: string, content = 'content') {
    const up = await upload([['file', { name, content, type }]])
    expect(up.status).toBe(200)
    const res = await t.app.inject({
      method: 'GET',
      url: up.body.data.url,
      headers: { 'x-auth-token': t.adminToken },
    })
    expect(res.statusCode).toBe(200)
    expect(res.body).toBe(content)
    return res.headers
  }

  it.each([
    ['page.html', 'text/html', '<script>alert(1)</script>'],
    ['drawing.svg', 'image/svg+xml', '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'],
    ['data.xml', 'application/xml', '<a/>'],
    ['app.js', 'text/javascript', 'alert(1)'],
    ['page.xhtml', 'application/xhtml+xml', '<html/>'],
    // an active name keeps no declared type, however harmless it looks
    ['disguised.html', 'image/png', '<script>alert(1)</script>'],
    ['disguised.svg', 'text/plain', '<svg/>'],
    // and a type off the allow-list is never trusted
    ['odd.bin', 'application/x-demo', 'x'],
    ['page.txt', 'text/html', '<script>alert(1)</script>'],
  ])('serves %s (%s) as an octet-stream attachment with nosniff', async (name, type, content) => {
    const headers = await served(name, type, content)
    expect(headers['content-type']).toBe('application/octet-stream')
    expect(String(headers['content-disposition'])).toMatch(/^attachment; /)
    expect(headers['x-content-type-options']).toBe('nosniff')
  })

  it.each([
    ['photo.png', 'image/png'],
    ['photo.jpg', 'image/jpeg'],
    ['anim.gif', 'image/gif'],
    ['pic.webp', 'image/webp'],
  ])('serves the image %s inline with its type %s (the console previews it)', async (name, type) => {
    const headers = await served(name, type)
    expect(headers['content-type']).toBe(type)
    expect(String(headers['content-disposition'])).toMatch(/^inline; filename="/)
    expect(headers['x-content-type-options']).toBe('nosniff')
  })

  it.each([
    ['report.pdf', 'application/pdf'],
    ['notes.txt', 'text/plain'],
    ['sheet.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
    ['backup.zip', 'application/zip'],
  ])('serves the inert document %s with its type %s, as an attachment', async (name, type) => {
    const headers = await served(name, type)
    expect(headers['content-type']).toBe(type)
    expect(String(headers['content-disposition'])).toMatch(/^attachment; /)
    expect(headers['x-content-type-options']).toBe('nosniff')
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
    const [dropRow] = await t.db.select().from(files).where(eq(files.publicId, drop.body.data.fileId))
    const [keepRow] = await t.db.select().from(files).where(eq(files.publicId, keep.body.data.fileId))
    // two hours from now: the 30m and 1h files have expired, the 7d one has not
    const later = new Date(Date.now() + 2 * 3600_000)
    await stored().putLeftover('leftover-of-an-interrupted-upload', 'x', new Date())
    await stored().putLeftover('upload-in-progress', 'y', new Date(later.getTime() - ORPHAN_GRACE_MS / 2))
    const result = await sweepExpiredFiles(t.db, stored().store, later)
    expect(result.expired).toBeGreaterThanOrEqual(1)

    expect(await t.db.select().from(files).where(eq(files.id, dropRow.id))).toHaveLength(0)
    expect(await stored().has(dropRow.storageName)).toBe(false)
    expect(await t.db.select().from(files).where(eq(files.id, keepRow.id))).toHaveLength(1)
    expect(await stored().has(keepRow.storageName)).toBe(true)
    expect(await stored().has('leftover-of-an-interrupted-upload')).toBe(false)
    expect(await stored().has('upload-in-progress')).toBe(true)
    const remaining = await t.db.select({ expireTime: files.expireTime }).from(files)
    expect(remaining.every((r) => r.expireTime > later)).toBe(true)
    await stored().remove('upload-in-progress')
  })

  it('runs periodically in the app (FILE_SWEEP_SECONDS)', async () => {
    const up = await upload([['file', { name: 'timer.txt', content: 't' }]])
    const [row] = await t.db.select().from(files).where(eq(files.publicId, up.body.data.fileId))
    await t.db
      .update(files)
      .set({ expireTime: new Date(Date.now() - 1000) })
      .where(eq(files.id, row.id))
    const deadline = Date.now() + 5000
    while (Date.now() < deadline && (await stored().has(row.storageName))) {
      await new Promise((r) => setTimeout(r, 100))
    }
    expect(await stored().has(row.storageName)).toBe(false)
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
