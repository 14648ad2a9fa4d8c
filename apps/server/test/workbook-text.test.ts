import { describe, expect, it } from 'vitest'
import ExcelJS from 'exceljs'
import JSZip from 'jszip'
import { readUpload, streamWorkbook } from '../src/lib/workbook'
import { USER_COLUMNS } from '../src/modules/import/user-rows'
import { MSG } from '@amg/contract'
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

/** The same package with its parts stored in another order (a zip's entries keep the order they are added in). */
async function repacked(file: Buffer, order: (paths: string[]) => string[]): Promise<Buffer> {
  const zip = await JSZip.loadAsync(file)
  const paths = Object.keys(zip.files).filter((p) => !zip.files[p].dir)
  const out = new JSZip()
  for (const path of order(paths)) out.file(path, await zip.files[path].async('uint8array'))
  return out.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' })
}

describe('a package, whatever order its parts are stored in', () => {
  const SMALL = 50
  async function twoSheets(): Promise<Buffer> {
    const wb = new ExcelJS.Workbook()
    const users = wb.addWorksheet('用户')
    users.addRow([...USER_COLUMNS])
    for (let i = 0; i < SMALL; i++) users.addRow(rowOf(i))
    wb.addWorksheet('说明').addRow(['这一页不是数据'])
    return Buffer.from(await wb.xlsx.writeBuffer())
  }
  const expectFirstSheet = async (file: Buffer) => {
    const sheet = await readUpload(file, 'users.xlsx', USER_COLUMNS)
    expect([...sheet.rows].map((r) => r.cells.slice(0, 7))).toEqual(
      Array.from({ length: SMALL }, (_, i) => rowOf(i).slice(0, 7)),
    )
  }
  const last = (paths: string[], lastOnes: RegExp) => [
    ...paths.filter((p) => !lastOnes.test(p)),
    ...paths.filter((p) => lastOnes.test(p)),
  ]

  it('reads the first sheet the workbook lists, its rows as written', async () => {
    const file = await twoSheets()
    await expectFirstSheet(file)
    // the worksheets before the workbook's own part, which names them
    await expectFirstSheet(await repacked(file, (paths) => last(paths, /^xl\/workbook\.xml$/)))
    // everything before the worksheets, the second sheet stored first
    await expectFirstSheet(await repacked(file, (paths) => last(paths, /worksheets\/sheet/).reverse()))
    await expectFirstSheet(await repacked(file, (paths) => [...paths].reverse()))
  })

  it('refuses a package whose part cannot be inflated, at once and with 400', async () => {
    const file = await twoSheets()
    for (const path of ['xl/sharedStrings.xml', 'xl/worksheets/sheet1.xml', 'xl/styles.xml']) {
      const broken = await brokenPart(file, path)
      await expect(readUpload(broken, 'users.xlsx', USER_COLUMNS), path).rejects.toMatchObject({
        status: 400,
        message: MSG.importNotWorkbook,
      })
    }
  })
})

/** The package with one part's compressed bytes overwritten: a deflate stream no reader can inflate. */
async function brokenPart(file: Buffer, path: string): Promise<Buffer> {
  const zip = await repacked(file, (paths) => paths)
  const SIGNATURE = Buffer.from('PK\u0003\u0004', 'latin1')
  const name = Buffer.from(path)
  // a local header: the signature, 26 bytes of fields, the part's name, an extra field, then the data
  let at = zip.indexOf(SIGNATURE)
  while (at >= 0 && !zip.subarray(at + 30, at + 30 + name.length).equals(name))
    at = zip.indexOf(SIGNATURE, at + 4)
  if (at < 0) throw new Error(`no ${path} in the package`)
  const data = at + 30 + name.length + zip.readUInt16LE(at + 28)
  const compressedSize = zip.readUInt32LE(at + 18)
  return Buffer.from(zip).fill(0xff, data, data + Math.min(16, compressedSize))
}
