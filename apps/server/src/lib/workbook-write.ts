import { once } from 'node:events'
import { PassThrough, type Readable, type Writable } from 'node:stream'
import { zonedIso } from '@amg/contract'
import { columnLetter, loadExcel } from './excel'

/** Writing workbooks (DESIGN.md §15): a template built whole, long lists streamed as they are read. */

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'

/** A content-disposition naming a download in Chinese, with an ASCII fallback. */
export const attachment = (asciiName: string, name: string) =>
  `attachment; filename="${asciiName}"; filename*=UTF-8''${encodeURIComponent(name)}`

/**
 * The time in a download's name: now, as the wall clock of the server's zone reads it
 * (`20261128233755`), the zone the logs and the exported times are written in.
 */
export const downloadStamp = (timeZone: string, now = new Date()) =>
  zonedIso(now, timeZone).slice(0, 19).replace(/[-:T]/g, '')

export interface TemplateSpec {
  sheetName: string
  columns: readonly { header: string; width: number; list?: readonly string[] }[]
  /** lines of the 说明 sheet */
  notes: readonly string[]
}

/**
 * A small template, built whole: the header row, each column's drop-down list (typed values are
 * allowed too, so several names joined by ';' still fit) and the 说明 sheet.
 */
export async function templateWorkbook(spec: TemplateSpec): Promise<Buffer> {
  const excel = await loadExcel()
  const workbook = new excel.Workbook()
  const sheet = workbook.addWorksheet(spec.sheetName)
  const lists = workbook.addWorksheet('下拉列表', { state: 'hidden' })
  sheet.columns = spec.columns.map((c) => ({ header: c.header, width: c.width, style: { numFmt: '@' } }))
  sheet.getRow(1).font = { bold: true }
  spec.columns.forEach((column, i) => {
    if (!column.list?.length) return
    const letter = columnLetter(i)
    column.list.forEach((value, j) => (lists.getCell(`${letter}${j + 1}`).value = value))
    for (let row = 2; row <= 1001; row++)
      sheet.getCell(`${letter}${row}`).dataValidation = {
        type: 'list',
        allowBlank: true,
        showErrorMessage: false,
        formulae: [`'下拉列表'!$${letter}$1:$${letter}$${column.list.length}`],
      }
  })
  const notes = workbook.addWorksheet('说明')
  notes.getColumn(1).width = 100
  spec.notes.forEach((line, i) => (notes.getCell(`A${i + 1}`).value = line))
  return Buffer.from(await workbook.xlsx.writeBuffer())
}

/**
 * A workbook streamed as it is written: rows go out as they are read, never the whole sheet in
 * memory, and reading waits while the client is slower than the database.
 */
export function streamWorkbook(
  sheetName: string,
  header: readonly string[],
  rows: AsyncIterable<readonly unknown[]> | Iterable<readonly unknown[]>,
): Readable {
  const out = new PassThrough()
  void (async () => {
    try {
      const excel = await loadExcel()
      const workbook = new excel.stream.xlsx.WorkbookWriter({
        stream: out as unknown as Writable,
        useSharedStrings: false,
        useStyles: false,
      })
      const sheet = workbook.addWorksheet(sheetName)
      sheet.addRow([...header]).commit()
      for await (const cells of rows) {
        sheet.addRow([...cells]).commit()
        if (out.writableNeedDrain) await once(out, 'drain')
      }
      sheet.commit()
      await workbook.commit()
    } catch (err) {
      out.destroy(err as Error)
    }
  })()
  return out
}
