import { Readable, Transform } from 'node:stream'
import { StringDecoder } from 'node:string_decoder'
import type ExcelJS from 'exceljs'
import JSZip from 'jszip'
import { MSG, importFormulaCell, importWrongColumns } from '@amg/contract'
import { AppError, badRequest } from './errors'
import { SheetRows, type SheetRow } from './sheet-rows'
import { columnLetter, loadExcel } from './excel'

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

/** The first worksheet's path inside the package, as the workbook lists its sheets. */
async function firstSheetPath(zip: JSZip): Promise<string | null> {
  const workbook = await zip.file('xl/workbook.xml')?.async('string')
  const rels = await zip.file('xl/_rels/workbook.xml.rels')?.async('string')
  if (!workbook || !rels) return null
  const id = /<(?:\w+:)?sheet\b[^>]*\br:id="([^"]+)"/.exec(workbook)?.[1]
  if (!id) return null
  const rel = new RegExp(`<Relationship\\b[^>]*\\bId="${id}"[^>]*>`).exec(rels)?.[0]
  const target = rel && /\bTarget="([^"]+)"/.exec(rel)?.[1]
  if (!target) return null
  return target.startsWith('/') ? target.slice(1) : `xl/${target}`
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
  if (!sheetFile) throw badRequest(MSG.importNotWorkbook)
  // merged cells sit after the sheet's data: read the sheet's text in pieces, looking for them only
  if (await containsText(sheetFile, '<mergeCell ')) throw badRequest(MSG.importMergedCells)

  const Utf8WorkbookReader = await utf8WorkbookReader()
  const reader = new Utf8WorkbookReader(Readable.from(file), {
    worksheets: 'emit',
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'cache',
    entries: 'ignore',
  })
  let header: string[] | null = null
  const rows = new SheetRows()
  try {
    for await (const worksheet of reader) {
      const sheet = worksheet as unknown as { iterator: AsyncIterable<Buffer | string> }
      sheet.iterator = utf8Text(sheet.iterator)
      for await (const row of worksheet as AsyncIterable<ExcelJS.Row>) {
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
      break // the first sheet holds the data; 说明 and the lists come after it
    }
  } catch (err) {
    if (err instanceof AppError) throw err
    throw badRequest(MSG.importNotWorkbook)
  }
  if (header === null) throw badRequest(MSG.importEmpty)
  return { header, rows }
}

/**
 * exceljs's streaming reader decodes each inflated chunk of a part on its own (utils/parse-sax.js), so
 * a character whose UTF-8 bytes a chunk boundary splits (any Chinese text, now and then) turns into
 * two U+FFFD: a name imported wrong, or refused as unknown. It passes text through as it is, so the
 * parts it reads row text from — each worksheet and the shared strings — are handed to it decoded
 * here, a character never cut in two.
 */
async function* utf8Text(chunks: AsyncIterable<Buffer | string>): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8')
  for await (const chunk of chunks) yield typeof chunk === 'string' ? chunk : decoder.write(chunk)
  const rest = decoder.end()
  if (rest) yield rest
}

type SharedStringsParser = (entry: Readable) => AsyncGenerator<unknown>

let utf8Reader: Promise<typeof ExcelJS.stream.xlsx.WorkbookReader> | undefined
/** exceljs's streaming reader, its shared strings decoded whole characters at a time (see utf8Text). */
const utf8WorkbookReader = () =>
  (utf8Reader ??= loadExcel().then((excel) => {
    const ExcelReader = excel.stream.xlsx.WorkbookReader
    const parseSharedStrings = (
      ExcelReader.prototype as unknown as { _parseSharedStrings: SharedStringsParser }
    )._parseSharedStrings
    return class Utf8WorkbookReader extends ExcelReader {
      _parseSharedStrings(entry: Readable): AsyncGenerator<unknown> {
        const decoder = new StringDecoder('utf8')
        const text = entry.pipe(
          new Transform({
            readableObjectMode: true,
            transform: (chunk: Buffer, _encoding, done) => done(null, decoder.write(chunk)),
            flush: (done) => done(null, decoder.end()),
          }),
        )
        // the entry is drained here, as exceljs drains the parts it reads
        return parseSharedStrings.call(this, text)
      }
    }
  }))

interface ZipStream {
  on(event: 'data', listener: (chunk: Uint8Array) => void): ZipStream
  on(event: 'error', listener: (err: Error) => void): ZipStream
  on(event: 'end', listener: () => void): ZipStream
  pause(): ZipStream
  resume(): ZipStream
}

function containsText(file: JSZip.JSZipObject, needle: string): Promise<boolean> {
  return new Promise((resolve, reject) => {
    let tail = ''
    let found = false
    // jszip's own stream (its nodeStream is not async-iterable): chunks of the inflated text
    const stream = (file as unknown as { internalStream(type: 'uint8array'): ZipStream }).internalStream(
      'uint8array',
    )
    stream
      .on('data', (chunk: Uint8Array) => {
        if (found) return
        const text = tail + Buffer.from(chunk).toString('latin1')
        if (text.includes(needle)) {
          found = true
          stream.pause()
          resolve(true)
        }
        tail = text.slice(-needle.length)
      })
      .on('error', reject)
      .on('end', () => resolve(found))
      .resume()
  })
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
