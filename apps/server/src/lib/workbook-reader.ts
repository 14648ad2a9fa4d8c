import { PassThrough, Transform, type Duplex, type Readable } from 'node:stream'
import { StringDecoder } from 'node:string_decoder'
import type ExcelJS from 'exceljs'
import type JSZip from 'jszip'
import { loadExcel } from './excel'

/**
 * Reading an .xlsx package for the import (workbook.ts): which sheet is the first, whether its text
 * holds something, and exceljs's streaming reader over that one sheet.
 */

/** The first worksheet's path inside the package, as the workbook lists its sheets. */
export async function firstSheetPath(zip: JSZip): Promise<string | null> {
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

/**
 * exceljs's streaming reader decodes each inflated chunk of a part on its own (utils/parse-sax.js), so
 * a character whose UTF-8 bytes a chunk boundary splits (any Chinese text, now and then) turns into
 * two U+FFFD: a name imported wrong, or refused as unknown. It passes text through as it is, so the
 * parts it reads row text from — each worksheet and the shared strings — are handed to it decoded
 * here, a character never cut in two.
 */
export async function* utf8Text(chunks: AsyncIterable<Buffer | string>): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8')
  for await (const chunk of chunks) yield typeof chunk === 'string' ? chunk : decoder.write(chunk)
  const rest = decoder.end()
  if (rest) yield rest
}

/** What of exceljs's streaming reader is used here (lib/stream/xlsx/workbook-reader.js). */
interface ExcelReaderParts {
  _parseRels(entry: Readable): Promise<void>
  _parseWorkbook(entry: Readable): Promise<void>
  _parseSharedStrings(entry: Readable): AsyncGenerator<unknown>
  _parseStyles(entry: Readable): Promise<void>
  _parseWorksheet(iterator: AsyncIterable<string>, sheetNo: string): Generator<unknown>
}

type WorksheetReader = AsyncIterable<ExcelJS.Row>

/**
 * A part of the package as a stream of its inflated bytes: a core stream, which exceljs pipes and
 * iterates, failing when the part cannot be inflated.
 */
function partStream(zip: JSZip, path: string): Readable {
  const part = zip.file(path)
  if (!part) throw new Error(`the package has no ${path}`)
  return pipeInto(part.nodeStream() as unknown as Readable, new PassThrough())
}

/** `from` piped into `to`, a failure of `from` made `to`'s: `pipe` carries no errors, and a reader would wait. */
function pipeInto<T extends Duplex>(from: Readable, to: T): T {
  from.on('error', (err) => to.destroy(err))
  return from.pipe(to)
}

let sheetReaderClass:
  Promise<new (zip: JSZip, sheetPath: string) => AsyncIterable<WorksheetReader>> | undefined

/**
 * exceljs's streaming reader over the first sheet of a package already opened (`zip`), which yields
 * that one worksheet.
 *
 * Its own reading takes the package's parts in the order they are stored, in one pass through
 * unzipper, and parses a worksheet as soon as the shared strings and the relationships are in: now
 * and then (about one read in a thousand here, more under load) a worksheet came before the workbook's
 * own part was parsed, and the read failed (exceljs issue 3064), so a good file was refused as not a
 * workbook. Here the parts a worksheet needs are read first, from the package's central directory,
 * then the sheet. Its shared strings and the sheet are decoded whole characters at a time (utf8Text).
 */
export async function firstSheetReader(
  zip: JSZip,
  sheetPath: string,
): Promise<AsyncIterable<WorksheetReader>> {
  sheetReaderClass ??= loadExcel().then((excel) => {
    const ExcelReader = excel.stream.xlsx.WorkbookReader
    return class FirstSheetReader extends ExcelReader {
      constructor(
        private readonly zip: JSZip,
        private readonly sheetPath: string,
      ) {
        super(undefined as never, {
          worksheets: 'emit',
          sharedStrings: 'cache',
          hyperlinks: 'ignore',
          styles: 'cache',
          entries: 'ignore',
        })
      }

      override async *parse(): AsyncGenerator<unknown> {
        const self = this as unknown as ExcelReaderParts
        const part = (path: string) => partStream(this.zip, path)
        const has = (path: string) => this.zip.file(path) !== null
        await self._parseRels(part('xl/_rels/workbook.xml.rels'))
        await self._parseWorkbook(part('xl/workbook.xml'))
        if (has('xl/sharedStrings.xml'))
          yield* self._parseSharedStrings(utf8Stream(part('xl/sharedStrings.xml')))
        if (has('xl/styles.xml')) await self._parseStyles(part('xl/styles.xml'))
        const sheetNo = /sheet(\d+)\.xml$/.exec(this.sheetPath)?.[1] ?? '1'
        yield* self._parseWorksheet(utf8Text(part(this.sheetPath)), sheetNo)
      }
    } as unknown as new (zip: JSZip, sheetPath: string) => AsyncIterable<WorksheetReader>
  })
  return new (await sheetReaderClass)(zip, sheetPath)
}

/** A part's bytes as text, whole characters at a time (see utf8Text), as a stream exceljs reads. */
function utf8Stream(part: Readable): Readable {
  const decoder = new StringDecoder('utf8')
  return pipeInto(
    part,
    new Transform({
      readableObjectMode: true,
      transform: (chunk: Buffer, _encoding, done) => done(null, decoder.write(chunk)),
      flush: (done) => done(null, decoder.end()),
    }),
  )
}

interface ZipStream {
  on(event: 'data', listener: (chunk: Uint8Array) => void): ZipStream
  on(event: 'error', listener: (err: Error) => void): ZipStream
  on(event: 'end', listener: () => void): ZipStream
  pause(): ZipStream
  resume(): ZipStream
}

export function containsText(file: JSZip.JSZipObject, needle: string): Promise<boolean> {
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
