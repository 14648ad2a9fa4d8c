import { describe, expect, it } from 'vitest'
import ExcelJS from 'exceljs'
import { readUpload, streamWorkbook } from '../src/lib/workbook'
import { USER_COLUMNS } from '../src/modules/import/user-rows'
import { csvOf, sofficeXlsx } from './helpers/workbooks'

/**
 * Chinese text arrives as written however a workbook's parts are cut while they are read (DESIGN.md
 * §15): exceljs's streaming reader decodes each chunk of a part on its own, and a character whose
 * bytes a chunk boundary splits used to come out as U+FFFD — names imported wrong or refused as unknown.
 */

const ROWS = 3000
const rowOf = (i: number) => [
  `user_${i}`,
  `用户${i}号（研发中心第${i % 9}组）`,
  String(13000000000 + i),
  '正常',
  `总公司/研发部${i % 7}/工程师`,
  `角色${i % 20}`,
  `用户组${i % 20}`,
  '',
]

async function expectEveryRowAsWritten(file: Buffer) {
  const sheet = await readUpload(file, 'users.xlsx', USER_COLUMNS)
  expect(sheet.rows).toHaveLength(ROWS)
  // the last column (初始密码) is empty: a reader may leave it out
  const text = (cells: readonly string[]) => cells.slice(0, 7).join('|')
  const wrong = [...sheet.rows].filter((row, i) => text(row.cells) !== text(rowOf(i)))
  expect(wrong.map((r) => r.cells)).toEqual([])
}

describe('a workbook of Chinese text, read in chunks', () => {
  it('inline strings, as the export and the result write them', async () => {
    const chunks: Buffer[] = []
    const rows = Array.from({ length: ROWS }, (_, i) => rowOf(i))
    for await (const chunk of streamWorkbook('用户', USER_COLUMNS, rows)) chunks.push(chunk as Buffer)
    await expectEveryRowAsWritten(Buffer.concat(chunks))
  })

  it('shared strings, as exceljs writes a whole workbook', async () => {
    const wb = new ExcelJS.Workbook()
    const sheet = wb.addWorksheet('用户')
    sheet.addRow([...USER_COLUMNS])
    for (let i = 0; i < ROWS; i++) sheet.addRow(rowOf(i))
    await expectEveryRowAsWritten(Buffer.from(await wb.xlsx.writeBuffer()))
  })

  it('shared strings, as LibreOffice writes them', async () => {
    const csv = csvOf([[...USER_COLUMNS], ...Array.from({ length: ROWS }, (_, i) => rowOf(i))])
    await expectEveryRowAsWritten(sofficeXlsx(csv))
  })
})
