import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import ExcelJS from 'exceljs'
import { instantOfWall, zonedIso } from '@amg/contract'
import { roles, stations, userGroups } from '../src/db/schema'
import { createTestApp, type TestApp } from './helpers/app'
import { importForm } from './helpers/workbooks'

/**
 * Times in the server's zone everywhere (decisions.md "Log times"): every export writes its times as
 * date cells or as text with the offset, never a bare UTC `…Z`; every download's name carries the
 * server's wall time; webhook deliveries answer their times with the offset. The server runs in
 * Asia/Shanghai (TZ) on a machine whose own zone is another, so UTC would show.
 */
const ZONE = 'Asia/Shanghai'
let t: TestApp
beforeAll(async () => {
  t = await createTestApp({
    timeZone: ZONE,
    webhookAllowPrivate: true,
    webhookWorkerIntervalMs: 30,
    webhookRetryScale: 0.002,
  })
  // a row in every list, and an operation logged
  await t.call('POST', '/api/user_groups/insert', { token: t.adminToken, body: { groupName: '时区组' } })
  await t.call('POST', '/api/station/insert', { token: t.adminToken, body: { stationName: '时区职位' } })
  await t.call('POST', '/api/user/insert', { token: t.adminToken, body: { nickName: 'tz_user' } })
})
afterAll(async () => t.close())

const TEXT_TIME = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2}) ([+-]\d{2}:\d{2})$/
/** Anything that reads like a time: a date followed by a clock. */
const LOOKS_LIKE_TIME = /\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/

async function download(url: string) {
  const res = await t.app.inject({ method: 'GET', url, headers: { 'x-auth-token': t.adminToken } })
  expect(res.statusCode, res.body).toBe(200)
  return { body: res.rawPayload, disposition: String(res.headers['content-disposition']) }
}

/** The download's names (ASCII and Chinese) carry the server's wall time of now. */
function expectStampNow(disposition: string) {
  const names = [/filename="([^"]+)"/.exec(disposition)![1], decodeURIComponent(disposition.split("''")[1])]
  for (const name of names) {
    const stamp = /(\d{14})/.exec(name)![1]
    const wall = `${stamp.slice(0, 4)}-${stamp.slice(4, 6)}-${stamp.slice(6, 8)}T${stamp.slice(8, 10)}:${stamp.slice(10, 12)}:${stamp.slice(12, 14)}`
    expect(Math.abs(instantOfWall(wall, ZONE).getTime() - Date.now()), name).toBeLessThan(120_000)
  }
}

/** Every cell of the first sheet, with its header. */
async function cells(body: Buffer): Promise<{ header: string; value: ExcelJS.CellValue }[][]> {
  const workbook = new ExcelJS.Workbook()
  await workbook.xlsx.load(body as never)
  const rows: { header: string; value: ExcelJS.CellValue }[][] = []
  const sheet = workbook.worksheets[0]
  const header = (sheet.getRow(1).values as unknown[]).map((v) => String(v ?? ''))
  sheet.eachRow((row, n) => {
    if (n === 1) return
    const line: { header: string; value: ExcelJS.CellValue }[] = []
    row.eachCell((cell, col) => line.push({ header: header[col], value: cell.value }))
    rows.push(line)
  })
  return rows
}

/** A time cell is a date cell, or text with its offset; any text that reads like a time has one. */
function expectZonedTimes(rows: { header: string; value: ExcelJS.CellValue }[][]) {
  let times = 0
  for (const row of rows)
    for (const { header, value } of row) {
      if (value instanceof Date) {
        times++
        continue
      }
      if (typeof value === 'string' && LOOKS_LIKE_TIME.test(value)) {
        expect(value, header).toMatch(TEXT_TIME)
        times++
      }
    }
  return times
}

describe('exports: times with the offset, names in the server’s zone', () => {
  it('roles, groups and job titles: 创建时间 is the record’s time in the server’s zone, offset written', async () => {
    const stored = {
      '/api/role/export': (await t.db.select().from(roles)).map((r) => [r.roleName, r.createTime] as const),
      '/api/user_groups/export': (await t.db.select().from(userGroups)).map(
        (g) => [g.groupName, g.createTime] as const,
      ),
      '/api/station/export': (await t.db.select().from(stations)).map(
        (s) => [s.stationName, s.createTime] as const,
      ),
    }
    for (const [url, records] of Object.entries(stored)) {
      const { body, disposition } = await download(url)
      expectStampNow(disposition)
      const rows = await cells(body)
      expect(expectZonedTimes(rows), url).toBe(records.length)
      for (const [name, createTime] of records) {
        const row = rows.find((r) => r[0].value === name)!
        const cell = row.find((c) => c.header === '创建时间')!.value as string
        const [, date, clock, offset] = TEXT_TIME.exec(cell)!
        // the wall time and offset of the record's instant in the zone: the same instant, and +08:00
        const zoned = zonedIso(createTime, ZONE)
        expect(`${date}T${clock}${offset}`).toBe(`${zoned.slice(0, 19)}${zoned.slice(23)}`)
        expect(offset).toBe('+08:00')
      }
    }
  })

  it('users and positions (no time columns): named in the server’s zone, no UTC text anywhere', async () => {
    for (const url of ['/api/user/export', '/api/position/export']) {
      const { body, disposition } = await download(url)
      expectStampNow(disposition)
      expectZonedTimes(await cells(body))
    }
  })

  it('the operation log CSV: its name in the server’s zone, its times with the offset', async () => {
    const { body, disposition } = await download('/api/log/operation/export')
    expectStampNow(disposition)
    const lines = body.toString('utf8').slice(1).trim().split('\r\n').slice(1)
    expect(lines.length).toBeGreaterThan(0)
    for (const line of lines) expect(line.split(',')[1]).toMatch(TEXT_TIME)
  })

  it('an import’s result: named in the server’s zone', async () => {
    const header = ['登录名*', '姓名', '手机号', '状态', '岗位', '角色', '用户组', '初始密码']
    const workbook = new ExcelJS.Workbook()
    workbook.addWorksheet('用户').addRows([header, ['tz_imported', '时']])
    const file = Buffer.from(await workbook.xlsx.writeBuffer())
    const { body, headers } = await startAndWait(file)
    expect(body.length).toBeGreaterThan(0)
    expectStampNow(headers)
  })
})

/** Starts a dry-run import and answers its result download (body and content-disposition). */
async function startAndWait(file: Buffer): Promise<{ body: Buffer; headers: string }> {
  const form = await importForm(file, 'users.xlsx', { mode: 'insert', dryRun: 'true' })
  const started = await t.call('POST', '/api/user/import', { token: t.adminToken, ...form })
  expect(started.status, started.body.msg).toBe(200)
  const jobId = started.body.data.jobId as string
  for (;;) {
    const job = await t.call('GET', '/api/import/job', { token: t.adminToken, query: { jobId } })
    if (job.body.data.status !== 'running') break
    await new Promise((r) => setTimeout(r, 50))
  }
  const { body, disposition } = await download(`/api/import/result?jobId=${jobId}`)
  return { body, headers: disposition }
}

describe('webhook deliveries', () => {
  it('answer their times in the server’s zone with the offset', async () => {
    const hook = await t.call<{ id: number }>('POST', '/api/webhook/insert', {
      token: t.adminToken,
      body: { name: '时区', url: 'http://127.0.0.1:9/hook', eventTypes: ['user.created'], enabled: true },
    })
    expect(hook.status, hook.body.msg).toBe(200)
    const id = hook.body.data.id
    expect((await t.call('POST', '/api/webhook/test', { token: t.adminToken, query: { id } })).status).toBe(
      200,
    )
    const ZONED = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+08:00$/
    let delivery: Record<string, unknown> = {}
    for (let i = 0; i < 200; i++) {
      const list = await t.call('POST', '/api/webhook/deliveries', { token: t.adminToken, body: { id } })
      delivery = list.body.data.list[0]
      if (delivery?.lastAttemptAt) break
      await new Promise((r) => setTimeout(r, 50))
    }
    expect(delivery.createTime).toMatch(ZONED)
    expect(delivery.lastAttemptAt).toMatch(ZONED)
    if (delivery.nextAttemptAt !== null) expect(delivery.nextAttemptAt).toMatch(ZONED)
    expect(Math.abs(Date.parse(delivery.createTime as string) - Date.now())).toBeLessThan(120_000)
  })
})
