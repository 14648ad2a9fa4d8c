import type ExcelJS from 'exceljs'
import JSZip from 'jszip'
import { MSG, importFormulaCell, importWrongColumns } from '@amg/contract'
import { AppError, badRequest } from './errors'
import { SheetRows, type SheetRow } from './sheet-rows'
import { columnLetter } from './excel'
import { containsText, firstSheetPath, firstSheetReader } from './workbook-reader'

export {
  attachment,
  downloadStamp,
  streamWorkbook,
  templateWorkbook,
  XLSX_TYPE,
  type TemplateSpec,
} from './workbook-write'

/**
 * The one place that knows spreadsheets (DESIGN.md §15): reading an upload (.xlsx with exceljs's
 * streaming reader, or CSV) into rows of text, refusing bad files with a clear message, and writing
 * workbooks, streamed where they can be long (workbook-write.ts, re-exported here).
 */

export const IMPORT_MAX_BYTES = 20 * 1024 * 1024
export const IMPORT_MAX_ROWS = 200_000

export type { SheetRow }

export interface ReadSheet {
  header: string[]
  rows: SheetRows
}

const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04])
/** An OLE compound file: a legacy .xls, or an .xlsx encrypted with a password. */
const CFB_MAGIC = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])
const ENCRYPTION_INFO = Buffer.from('EncryptionInfo', 'utf16le')

/**
 * Reads the first sheet of an upload. `expected`: the template's header; the first row must hold
 * exactly these (a trailing '*' marking a required column may be left out). Refused with 400, before
 * anything is written: not a workbook, encrypted, too large, too many rows, a formula or an error
 * value, merged cells, no data.
 */
export async function readUpload(
  file: Buffer,
  fileName: string,
  expected: readonly string[],
): Promise<ReadSheet> {
  if (file.length > IMPORT_MAX_BYTES) throw badRequest(MSG.importTooLarge)
  let sheet: ReadSheet
  if (file.subarray(0, 4).equals(ZIP_MAGIC)) sheet = await readXlsx(file)
  else if (file.subarray(0, 8).equals(CFB_MAGIC))
    throw badRequest(file.includes(ENCRYPTION_INFO) ? MSG.importEncrypted : MSG.importNotWorkbook)
  else if (/\.csv$/i.test(fileName)) sheet = readCsv(file)
  else throw badRequest(MSG.importNotWorkbook)
  const header = sheet.header.map((h) => h.trim().replace(/\*$/, ''))
  const want = expected.map((h) => h.replace(/\*$/, ''))
  while (header.length > want.length && header[header.length - 1] === '') header.pop()
  if (header.length !== want.length || header.some((h, i) => h !== want[i]))
    throw badRequest(importWrongColumns(expected))
  if (sheet.rows.length === 0) throw badRequest(MSG.importEmpty)
  return sheet
}

async function readXlsx(file: Buffer): Promise<ReadSheet> {
  let zip: JSZip
  try {
    zip = await JSZip.loadAsync(file)
  } catch {
    throw badRequest(MSG.importNotWorkbook)
  }
  const sheetPath = await firstSheetPath(zip)
  const sheetFile = sheetPath ? zip.file(sheetPath) : null
  if (!sheetPath || !sheetFile) throw badRequest(MSG.importNotWorkbook)
  // merged cells sit after the sheet's data: read the sheet's text in pieces, looking for them only
  const merged = await containsText(sheetFile, '<mergeCell ').catch(() => {
    throw badRequest(MSG.importNotWorkbook)
  })
  if (merged) throw badRequest(MSG.importMergedCells)

  const reader = await firstSheetReader(zip, sheetPath)
  let header: string[] | null = null
  const rows = new SheetRows()
  try {
    for await (const worksheet of reader) {
      for await (const row of worksheet) {
        const cells: string[] = []
        row.eachCell({ includeEmpty: false }, (cell, col) => {
          cells[col - 1] = cellText(cell.value, `${columnLetter(col - 1)}${row.number}`)
        })
        for (let i = 0; i < cells.length; i++) cells[i] ??= ''
        if (header === null) {
          header = cells
          continue
        }
        if (cells.every((c) => c.trim() === '')) continue
        rows.push({ rowNumber: row.number, cells })
        if (rows.length > IMPORT_MAX_ROWS) throw badRequest(MSG.importTooManyRows)
      }
      break // the reader yields the first sheet only: the data; 说明 and the lists come after it
    }
  } catch (err) {
    if (err instanceof AppError) throw err
    throw badRequest(MSG.importNotWorkbook)
  }
  if (header === null) throw badRequest(MSG.importEmpty)
  return { header, rows }
}

/** A cell's value as the text a user sees; formulas and error values are refused. */
function cellText(value: ExcelJS.CellValue, address: string): string {
  if (value === null || value === undefined) return ''
  if (typeof value === 'string') return value
  // a phone number typed into a number cell arrives as a number: its digits, never 1.38e+10
  if (typeof value === 'number') return Number.isInteger(value) ? value.toFixed(0) : String(value)
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE'
  if (value instanceof Date) return value.toISOString().slice(0, 10)
  if ('formula' in value || 'sharedFormula' in value || 'error' in value)
    throw badRequest(importFormulaCell(address))
  if ('richText' in value) return value.richText.map((r) => r.text).join('')
  if ('text' in value) return String(value.text)
  return ''
}

/** CSV: UTF-8 (with or without BOM) or GB18030 as older spreadsheet programs save it; RFC 4180 quoting. */
function readCsv(file: Buffer): ReadSheet {
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(file)
  } catch {
    text = new TextDecoder('gb18030').decode(file)
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1)
  if (text.includes('\u0000')) throw badRequest(MSG.importNotWorkbook)
  const records = parseCsv(text)
  if (records.length === 0) throw badRequest(MSG.importEmpty)
  const [header, ...rest] = records
  const rows = new SheetRows()
  rest.forEach((cells, i) => {
    if (cells.every((c) => c.trim() === '')) return
    const rowNumber = i + 2
    cells.forEach((c, col) => {
      // what a spreadsheet would run as a formula is refused as in a workbook
      if (/^=/.test(c)) throw badRequest(importFormulaCell(`${columnLetter(col)}${rowNumber}`))
    })
    rows.push({ rowNumber, cells })
    if (rows.length > IMPORT_MAX_ROWS) throw badRequest(MSG.importTooManyRows)
  })
  return { header, rows }
}

function parseCsv(text: string): string[][] {
  const records: string[][] = []
  let record: string[] = []
  let field = ''
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"'
          i++
        } else quoted = false
      } else field += ch
    } else if (ch === '"' && field === '') quoted = true
    else if (ch === ',') {
      record.push(field)
      field = ''
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++
      record.push(field)
      records.push(record)
      record = []
      field = ''
    } else field += ch
  }
  if (field !== '' || record.length) {
    record.push(field)
    records.push(record)
  }
  return records
}
