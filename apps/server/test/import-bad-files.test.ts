import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import ExcelJS from 'exceljs'
import { MSG, importFormulaCell, importWrongColumns } from '@amg/contract'
import { users } from '../src/db/schema'
import { operationLogs } from '../src/db/audit-schema'
import { createTestApp, type TestApp } from './helpers/app'
import { csvOf, importForm, runImport, sofficeXlsx } from './helpers/workbooks'

/** Bad files (DESIGN.md §15): each refused with 400 and a clear Chinese message, nothing changed. */

const HEADER = ['登录名*', '姓名', '手机号', '状态', '岗位', '角色', '用户组', '初始密码']

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(async () => t.close())

const count = async () => ({
  users: (await t.db.select({ id: users.id }).from(users)).length,
  logs: (await t.db.select({ id: operationLogs.id }).from(operationLogs)).length,
})

async function upload(file: Buffer, fileName = 'users.xlsx', fields: Record<string, string> = {}) {
  const { body, headers } = await importForm(file, fileName, fields)
  return t.call('POST', '/api/user/import', { token: t.adminToken, body, headers })
}

async function workbook(fill: (sheet: ExcelJS.Worksheet) => void): Promise<Buffer> {
  const wb = new ExcelJS.Workbook()
  const sheet = wb.addWorksheet('用户')
  sheet.addRow(HEADER)
  fill(sheet)
  return Buffer.from(await wb.xlsx.writeBuffer())
}

/** Refused with this message, and not a user more. */
async function refused(file: Buffer, message: string, fileName?: string, fields?: Record<string, string>) {
  const before = await count()
  const res = await upload(file, fileName, fields)
  expect(res.status).toBe(400)
  expect(res.body.msg).toBe(message)
  expect((await count()).users).toBe(before.users)
}

describe('POST /api/user/import refuses bad files', () => {
  it('not a workbook', async () => {
    await refused(Buffer.from('hello, world'), MSG.importNotWorkbook, 'users.txt')
    await refused(Buffer.from('PK\u0003\u0004 not really a zip'), MSG.importNotWorkbook)
  })

  it('a password-protected workbook (an encrypted package)', async () => {
    const cfb = Buffer.alloc(4096)
    Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(cfb)
    Buffer.from('EncryptionInfo', 'utf16le').copy(cfb, 1024)
    await refused(cfb, MSG.importEncrypted)
  })

  it('wrong columns', async () => {
    const wb = new ExcelJS.Workbook()
    wb.addWorksheet('x').addRow(['用户名', '电话'])
    await refused(Buffer.from(await wb.xlsx.writeBuffer()), importWrongColumns(HEADER))
  })

  it('a formula or an error value in a cell', async () => {
    const formula = await workbook((s) => s.addRow(['f_user', { formula: '1+1', result: 2 }]))
    await refused(formula, importFormulaCell('B2'))
    const error = await workbook((s) => s.addRow(['e_user', '', { error: '#N/A' }]))
    await refused(error, importFormulaCell('C2'))
  })

  it('merged cells', async () => {
    const merged = await workbook((s) => {
      s.addRow(['m_user', 'a', 'b'])
      s.mergeCells('B2:C2')
    })
    await refused(merged, MSG.importMergedCells)
  })

  it('an empty sheet, and a header with no rows', async () => {
    const wb = new ExcelJS.Workbook()
    wb.addWorksheet('用户')
    await refused(Buffer.from(await wb.xlsx.writeBuffer()), MSG.importEmpty)
    await refused(await workbook(() => {}), MSG.importEmpty)
  })

  it('over 20 MB', async () => {
    await refused(Buffer.alloc(20 * 1024 * 1024 + 1, 0x41), MSG.importTooLarge, 'users.csv')
  })

  it('over 200,000 rows', async () => {
    const lines = [HEADER.join(',')]
    for (let i = 0; i < 200_001; i++) lines.push(`u${i}`)
    await refused(Buffer.from(lines.join('\n')), MSG.importTooManyRows, 'users.csv')
  })

  it('a bad mode or dryRun', async () => {
    const file = await workbook((s) => s.addRow(['ok_user']))
    await refused(file, MSG.importModeInvalid, 'users.xlsx', { mode: 'replace' })
    await refused(file, MSG.importDryRunInvalid, 'users.xlsx', { dryRun: 'maybe' })
  })

  it('no file at all', async () => {
    const fd = new FormData()
    fd.append('mode', 'insert')
    const res = new Response(fd)
    const answer = await t.call('POST', '/api/user/import', {
      token: t.adminToken,
      body: Buffer.from(await res.arrayBuffer()),
      headers: { 'content-type': res.headers.get('content-type')! },
    })
    expect(answer.status).toBe(400)
    expect(answer.body.msg).toBe(MSG.importNoFile)
  })
})

describe('what is accepted', () => {
  it('CSV (UTF-8 with BOM) as well as LibreOffice workbooks', async () => {
    const csv = '\ufeff' + csvOf([HEADER, ['csv_user', '丙', '13700000000', '正常', '', '', '', '']])
    const { job } = await runImport(t, Buffer.from(csv), { fileName: 'users.csv' })
    expect(job).toMatchObject({ inserted: 1, failed: 0 })
    const lo = sofficeXlsx(csvOf([HEADER, ['lo_user', '', 13700000001, '', '', '', '', '']]))
    expect((await runImport(t, lo)).job).toMatchObject({ inserted: 1, failed: 0 })
  })

  it('the job and its result belong to the one who started it', async () => {
    const file = await workbook((s) => s.addRow(['owner_user']))
    const { body, headers } = await importForm(file, 'users.xlsx', { dryRun: 'true' })
    const started = await t.call('POST', '/api/user/import', { token: t.adminToken, body, headers })
    const other = await t.userWithCodes(['user', 'user:import'])
    const jobId = started.body.data.jobId
    const peek = await t.call('GET', '/api/import/job', { token: other.token, query: { jobId } })
    expect(peek.status).toBe(404)
    expect(peek.body.msg).toBe(MSG.importJobNotFound)
  })

  it('a user without 导入用户 is refused the import and the template', async () => {
    const weak = await t.userWithCodes(['user'])
    const file = await workbook((s) => s.addRow(['x_user']))
    const { body, headers } = await importForm(file, 'users.xlsx')
    const res = await t.call('POST', '/api/user/import', { token: weak.token, body, headers })
    expect(res.status).toBe(403)
    const template = await t.call('GET', '/api/user/import/template', { token: weak.token })
    expect(template.status).toBe(403)
  })

  it('the template: the columns, a 说明 sheet, the status drop-down', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/user/import/template',
      headers: { 'x-auth-token': t.adminToken },
    })
    expect(res.statusCode).toBe(200)
    const wb = new ExcelJS.Workbook()
    await wb.xlsx.load(res.rawPayload as never)
    const sheet = wb.worksheets[0]
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual(HEADER)
    expect(wb.getWorksheet('说明')?.getCell('A1').text).toBe('用户导入说明')
    expect(sheet.getCell('D2').dataValidation?.type).toBe('list')
    // the template itself imports: its header is what the importer expects
    await refused(res.rawPayload, MSG.importEmpty)
  })
})
