import type { FastifyRequest } from 'fastify'
import { MSG, type ImportMode } from '@amg/contract'
import { badRequest } from '../../lib/errors'
import { IMPORT_MAX_BYTES, readUpload, type ReadSheet } from '../../lib/workbook'

export interface ImportUpload {
  mode: ImportMode
  dryRun: boolean
  sheet: ReadSheet
}

const TRUE = new Set(['true', '1', 'on', 'yes'])
const FALSE = new Set(['false', '0', 'off', 'no', ''])

/**
 * POST /user/import and /org/import, before their transaction: the multipart fields `file`, `mode`
 * and `dryRun`, the file read whole (at most 20 MB) and checked, so a bad file is refused with 400
 * before any job starts.
 */
export async function receiveImport(req: FastifyRequest, columns: readonly string[]): Promise<ImportUpload> {
  if (!req.isMultipart()) throw badRequest(MSG.importNoFile)
  let file: { buffer: Buffer; name: string } | null = null
  let mode = 'insert'
  let dryRun = 'false'
  try {
    for await (const part of req.parts({ limits: { fileSize: IMPORT_MAX_BYTES, files: 1 } })) {
      if (part.type === 'file') {
        const buffer = await part.toBuffer()
        file = { buffer, name: part.filename ?? '' }
      } else if (part.fieldname === 'mode') mode = String(part.value)
      else if (part.fieldname === 'dryRun') dryRun = String(part.value).toLowerCase()
    }
  } catch (err) {
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw badRequest(MSG.importTooLarge)
    throw badRequest(MSG.importNotWorkbook)
  }
  if (mode !== 'insert' && mode !== 'upsert') throw badRequest(MSG.importModeInvalid)
  if (!TRUE.has(dryRun) && !FALSE.has(dryRun)) throw badRequest(MSG.importDryRunInvalid)
  if (!file || file.buffer.length === 0) throw badRequest(MSG.importNoFile)
  return { mode, dryRun: TRUE.has(dryRun), sheet: await readUpload(file.buffer, file.name, columns) }
}
