import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { and, eq, sql } from 'drizzle-orm'
import ExcelJS from 'exceljs'
import { DATA_SCOPE, MSG, importExpiryInvalid, importExpiryPast } from '@amg/contract'
import { positionUsers, roles, userGroupUsers, userRoles, users } from '../src/db/schema'
import { createTestApp, type TestApp } from './helpers/app'
import { seedScopedCompany, type ScopedCompany } from './helpers/scoped-company'
import { csvOf, runImport, sheetRows, sofficeXlsx } from './helpers/workbooks'

/**
 * Time-bound links in the user workbook (DESIGN.md §15, §20): the export writes a link's expiry after
 * its name, `名称（至 2030-06-30 18:00 +08:00）`, in the server's zone; the import reads it back, makes
 * the link with it (set-wise and row by row), compares it to the minute so export → import is a no-op,
 * never shortens a link, and fails a row whose expiry is past or not a time. The server runs in
 * Asia/Shanghai on a machine whose own zone is another, so a UTC slip would show.
 */

const ZONE = 'Asia/Shanghai'
const HEADER = ['登录名*', '姓名', '手机号', '状态', '岗位', '角色', '用户组', '初始密码']
const FRONT = '总公司/研发中心/前端组/员工'
const SALES = '总公司/销售部/员工'
const GROUP = '全公司群'
const ROLE = '限时角色'
/** a role whose own name ends like a suffix: named plainly, it is that role */
const ODD = '值班（至周五）'

let t: TestApp
let c: ScopedCompany
let roleId: number
let oddId: number
beforeAll(async () => {
  // the sweeper is left off: a link past its expiry stays until a test looks at it
  t = await createTestApp({ timeZone: ZONE, linkSweepSeconds: 0 })
  c = await seedScopedCompany(t)
  const made = await t.db
    .insert(roles)
    .values([ROLE, ODD].map((roleName) => ({ roleName, type: 3, status: 1, dataScope: DATA_SCOPE.all })))
    .returning({ id: roles.id })
  ;[roleId, oddId] = made.map((r) => r.id)
  t.app.ctx.changes.dropAll()
})
afterAll(async () => t.close())

const put = async (url: string, body: object) => {
  const res = await t.call('PUT', url, { token: t.adminToken, body })
  expect(res.status, res.body.msg).toBe(200)
}
const userId = async (nickName: string) =>
  (await t.db.select({ id: users.id }).from(users).where(eq(users.nickName, nickName)))[0]?.id

/** The user export's rows by 登录名 (the list's filters as a query). */
async function exportedRows(query = ''): Promise<Map<string, string[]>> {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/user/export${query}`,
    headers: { 'x-auth-token': t.adminToken },
  })
  expect(res.statusCode, res.body).toBe(200)
  const rows = [...(await sheetRows(res.rawPayload)).values()]
  expect(rows[0]).toEqual(HEADER)
  return new Map(rows.slice(1).map((r) => [r[0], r]))
}

/** A workbook as the server's own library writes one (text cells as given). */
async function workbook(rows: readonly (readonly string[])[]): Promise<Buffer> {
  const book = new ExcelJS.Workbook()
  book.addWorksheet('用户').addRows([HEADER, ...rows.map((r) => [...r])])
  return Buffer.from(await book.xlsx.writeBuffer())
}

/** Every user link as stored, expiry included, in one comparable list. */
async function allLinks(): Promise<string[]> {
  const rows = [
    ...(await t.db.select().from(positionUsers)).map((r) => ['p', r.userId, r.positionId, r.expiresAt]),
    ...(await t.db.select().from(userRoles)).map((r) => ['r', r.userId, r.roleId, r.expiresAt]),
    ...(await t.db.select().from(userGroupUsers)).map((r) => ['g', r.userId, r.groupId, r.expiresAt]),
  ]
  return rows.map((r) => JSON.stringify(r)).sort()
}

const roleExpiry = async (user: number, role = roleId) =>
  (
    await t.db
      .select({ at: userRoles.expiresAt })
      .from(userRoles)
      .where(and(eq(userRoles.userId, user), eq(userRoles.roleId, role)))
  )[0]?.at

describe('the user export writes each time-bound link with its expiry', () => {
  it('to the minute, in the server’s zone with its offset; permanent links stay plain names', async () => {
    const created = await t.call<number>('POST', '/api/user/insert', {
      token: t.adminToken,
      body: { nickName: 'exp_a', positionIds: [c.posA1] },
    })
    expect(created.status, created.body.msg).toBe(200)
    const id = await userId('exp_a')
    // seconds stored, minutes shown (dropped, not rounded); a UTC time shown in the server's zone
    await put('/api/rel/user-rel-role', { id, roleIds: `${roleId}`, expiresAt: '2030-06-30T18:00:37+08:00' })
    await put('/api/rel/user-rel-groups', { id, groupIds: `${c.group}`, expiresAt: '2030-07-01T09:30:00Z' })
    await put('/api/rel/user-rel-position', {
      id,
      positionIds: `${c.posB}`,
      expiresAt: '2030-06-30T18:00:00+08:00',
    })
    const row = (await exportedRows('?nickName=exp_a')).get('exp_a')!
    expect(row.slice(4, 7)).toEqual([
      `${FRONT};${SALES}（至 2030-06-30 18:00 +08:00）`,
      `${ROLE}（至 2030-06-30 18:00 +08:00）`,
      `${GROUP}（至 2030-07-01 17:30 +08:00）`,
    ])
  })

  it('export → import (upsert) is 未变更 for every row; a link already past its expiry is neither written nor touched', async () => {
    const stale = await t.userWithCodes([], 'exp_stale')
    await t.db
      .insert(userRoles)
      .values({ userId: stale.id, roleId, expiresAt: sql`now() - interval '1 minute'` })
    const rows = await exportedRows()
    expect(rows.get('exp_stale')![5]).not.toContain(ROLE)
    const before = await allLinks()
    const usersBefore = await t.db.select().from(users).orderBy(users.id)
    const exported = await t.app.inject({
      method: 'GET',
      url: '/api/user/export',
      headers: { 'x-auth-token': t.adminToken },
    })
    const { job, result } = await runImport(t, exported.rawPayload, { mode: 'upsert' })
    expect(job).toMatchObject({ status: 'done', inserted: 0, updated: 0, failed: 0, unchanged: rows.size })
    for (const [n, r] of result) if (n > 1) expect(r[8], r[0]).toBe(MSG.importRowUnchanged)
    expect(await allLinks()).toEqual(before)
    expect(await t.db.select().from(users).orderBy(users.id)).toEqual(usersBefore)
  })
})

describe('the template', () => {
  it('its 说明 tells the suffix, in the server’s zone', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/user/import/template',
      headers: { 'x-auth-token': t.adminToken },
    })
    expect(res.statusCode).toBe(200)
    const book = new ExcelJS.Workbook()
    await book.xlsx.load(res.rawPayload as never)
    const notes: string[] = []
    book.getWorksheet('说明')!.eachRow((row) => notes.push(row.getCell(1).text))
    const note = notes.find((n) => n.startsWith('限时关联'))
    expect(note).toContain('（至 2026-12-31 18:00）')
    expect(note).toContain(ZONE)
    expect(notes.some((n) => n.includes('不会缩短'))).toBe(true)
  })
})

describe('an import row’s expiry makes an expiring link', () => {
  // typed as an administrator would: no offset (the server's zone), ASCII parentheses, seconds
  const rowsOf = (prefix: string) => [
    [
      `${prefix}1`,
      '',
      '',
      '',
      `${FRONT}（至 2030-06-30 18:00）`,
      `${ROLE}(至 2030-06-30 18:00:30)`,
      `${GROUP}（至 2030-06-30 18:00 +00:00）`,
      '',
    ],
    [`${prefix}2`, '', '', '', SALES, `${ODD};${ROLE}；${ROLE}（至 2030-06-30 18:00）`, '', ''],
  ]
  async function expectLinks(prefix: string) {
    const first = await userId(`${prefix}1`)
    const [held] = await t.db.select().from(positionUsers).where(eq(positionUsers.userId, first))
    expect(held).toMatchObject({ positionId: c.posA1, expiresAt: new Date('2030-06-30T10:00:00Z') })
    expect(await roleExpiry(first)).toEqual(new Date('2030-06-30T10:00:30Z'))
    const [grouped] = await t.db.select().from(userGroupUsers).where(eq(userGroupUsers.userId, first))
    expect(grouped.expiresAt).toEqual(new Date('2030-06-30T18:00:00Z'))
    // the user's link list answers the same
    const list = await t.call('POST', '/api/rel/user/rolelist', {
      token: t.adminToken,
      query: { userId: first, pageNum: 1, pageSize: 50 },
    })
    expect(list.body.data.list).toEqual([
      expect.objectContaining({ id: roleId, expiresAt: '2030-06-30T10:00:30.000Z' }),
    ])
    // the same record named plainly and with an expiry is linked once, permanently; a name like a suffix is a name
    const second = await userId(`${prefix}2`)
    expect(await roleExpiry(second)).toBeNull()
    expect(await roleExpiry(second, oddId)).toBeNull()
  }

  it('set-wise (insert), from a workbook LibreOffice wrote', async () => {
    const { job, result } = await runImport(t, sofficeXlsx(csvOf([HEADER, ...rowsOf('exp_ins')])))
    expect(job, JSON.stringify([...result.values()])).toMatchObject({ inserted: 2, failed: 0 })
    await expectLinks('exp_ins')
  })

  it('row by row (an upsert whose file names the caller)', async () => {
    const admin = (await exportedRows('?nickName=admin')).get('admin')!
    const { job, result } = await runImport(t, await workbook([admin, ...rowsOf('exp_row')]), {
      mode: 'upsert',
    })
    expect(job, JSON.stringify([...result.values()])).toMatchObject({ inserted: 2, unchanged: 1, failed: 0 })
    await expectLinks('exp_row')
  })
})

describe('upsert: the link module’s rule, to the minute', () => {
  /** exp_a's exported row with its 角色 cell replaced; answers the job and the stored role expiry */
  async function importRole(cell: string) {
    const row = [...(await exportedRows('?nickName=exp_a')).get('exp_a')!]
    row[5] = cell
    const { job } = await runImport(t, await workbook([row]), { mode: 'upsert' })
    return { job, stored: await roleExpiry(await userId('exp_a')) }
  }

  it('an earlier expiry leaves the stored one; a later one extends; none makes it permanent; then an expiry never shortens it', async () => {
    const stored = new Date('2030-06-30T10:00:37Z')
    expect(await roleExpiry(await userId('exp_a'))).toEqual(stored)
    // the same minute with other seconds is the same expiry
    let r = await importRole(`${ROLE}（至 2030-06-30 18:00:59）`)
    expect(r).toMatchObject({ job: { unchanged: 1, updated: 0, failed: 0 }, stored })
    r = await importRole(`${ROLE}（至 2030-06-30 17:00）`)
    expect(r).toMatchObject({ job: { unchanged: 1, updated: 0, failed: 0 }, stored })
    r = await importRole(`${ROLE}（至 2031-01-01 00:00）`)
    expect(r).toMatchObject({ job: { updated: 1, failed: 0 }, stored: new Date('2030-12-31T16:00:00Z') })
    r = await importRole(ROLE)
    expect(r).toMatchObject({ job: { updated: 1, failed: 0 }, stored: null })
    r = await importRole(`${ROLE}（至 2032-01-01 00:00）`)
    expect(r).toMatchObject({ job: { unchanged: 1, updated: 0, failed: 0 }, stored: null })
  })
})

describe('a past or malformed expiry fails its row with its message and changes nothing', () => {
  it('insert: each bad row fails alone; the good one goes in', async () => {
    const cells = {
      past: `${ROLE}（至 2020-01-01 00:00）`,
      month: `${ROLE}（至 2030-13-01 08:00）`,
      word: `${FRONT}（至 明天）`,
      day: `${GROUP}(至 2030-02-30 08:00)`,
      clock: `${ROLE}（至 2030-06-30 24:00）`,
    }
    const file = await workbook([
      ['exp_bad1', '', '', '', '', cells.past, '', ''],
      ['exp_bad2', '', '', '', '', cells.month, '', ''],
      ['exp_bad3', '', '', '', cells.word, '', '', ''],
      ['exp_bad4', '', '', '', '', '', cells.day, ''],
      ['exp_bad5', '', '', '', '', cells.clock, '', ''],
      ['exp_good', '', '', '', '', `${ROLE}（至 2030-06-30 18:00）`, '', ''],
    ])
    const linksBefore = await allLinks()
    const dry = await runImport(t, file, { dryRun: true })
    const { job, result } = await runImport(t, file)
    expect([...result.entries()]).toEqual([...dry.result.entries()])
    expect(job).toMatchObject({ inserted: 1, failed: 5 })
    const reason = (n: number) => result.get(n)?.[9]
    expect(reason(2)).toBe(importExpiryPast('角色', ROLE))
    expect(reason(2)).toBe('角色“限时角色”的到期时间必须晚于当前时间')
    expect(reason(3)).toBe(importExpiryInvalid('角色', cells.month))
    expect(reason(4)).toBe(importExpiryInvalid('岗位', cells.word))
    expect(reason(5)).toBe(importExpiryInvalid('用户组', cells.day))
    expect(reason(6)).toBe(importExpiryInvalid('角色', cells.clock))
    for (const name of ['exp_bad1', 'exp_bad2', 'exp_bad3', 'exp_bad4', 'exp_bad5'])
      expect(await userId(name)).toBeUndefined()
    const good = await userId('exp_good')
    expect(await roleExpiry(good)).toEqual(new Date('2030-06-30T10:00:00Z'))
    expect((await allLinks()).filter((l) => !linksBefore.includes(l))).toEqual([
      JSON.stringify(['r', good, roleId, '2030-06-30T10:00:00.000Z']),
    ])
  })

  it('upsert: a past expiry fails the row and leaves the user’s links as they were', async () => {
    const row = [...(await exportedRows('?nickName=exp_a')).get('exp_a')!]
    row[1] = '不会改'
    row[6] = `${GROUP}（至 2021-05-01 08:00）`
    const before = await allLinks()
    const { job, result } = await runImport(t, await workbook([row]), { mode: 'upsert' })
    expect(job).toMatchObject({ updated: 0, failed: 1 })
    expect(result.get(2)?.[9]).toBe(importExpiryPast('用户组', GROUP))
    expect(await allLinks()).toEqual(before)
    const [user] = await t.db.select().from(users).where(eq(users.nickName, 'exp_a'))
    expect(user.realName).toBeNull()
  })
})
