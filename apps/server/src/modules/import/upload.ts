import type { FastifyRequest } from 'fastify'
import { MSG, type ImportMode } from '@amg/contract'
import { badRequest } from '../../lib/errors'
import { IMPORT_MAX_BYTES, readUpload, type ReadSheet } from '../../lib/workbook'

export interface ImportUpload {
  mode: ImportMode
  dryRun: boolean
  /** rows giving 超级管理员 may go in (the power check still applies); off unless asked for */
  allowSuperAdmin: boolean
  sheet: ReadSheet
  /** the file's name as sent, for the operation log: no folders, no control characters, at most 100 */
  fileName: string
}

/**
 * What the log may show of a sent file's name (the client chooses it: it is text, nothing more):
 * control characters and the invisible ones that reorder or hide text (名单\u202Exslx.exe) go.
 */
const cleanFileName = (name: string) =>
  (name.split(/[\\/]/).pop() ?? '')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufeff]/g, '')
    .trim()
    .slice(0, 100)

const TRUE = new Set(['true', '1', 'on', 'yes'])
const FALSE = new Set(['false', '0', 'off', 'no', ''])

/**
 * POST /user/import and /org/import, before their transaction: the multipart fields `file`, `mode`,
 * `dryRun` and `allowSuperAdmin` (read by the user import), the file read whole (at most 20 MB) and checked, so a bad file is refused with 400
 * before any job starts.
 */
export async function receiveImport(req: FastifyRequest, columns: readonly string[]): Promise<ImportUpload> {
  if (!req.isMultipart()) throw badRequest(MSG.importNoFile)
  let file: { buffer: Buffer; name: string } | null = null
  let mode = 'insert'
  let dryRun = 'false'
  let allowSuperAdmin = 'false'
  try {
    for await (const part of req.parts({ limits: { fileSize: IMPORT_MAX_BYTES, files: 1 } })) {
      if (part.type === 'file') {
        const buffer = await part.toBuffer()
        file = { buffer, name: part.filename ?? '' }
      } else if (part.fieldname === 'mode') mode = String(part.value)
      else if (part.fieldname === 'dryRun') dryRun = String(part.value).toLowerCase()
      else if (part.fieldname === 'allowSuperAdmin') allowSuperAdmin = String(part.value).toLowerCase()
    }
  } catch (err) {
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw badRequest(MSG.importTooLarge)
    throw badRequest(MSG.importNotWorkbook)
  }
  if (mode !== 'insert' && mode !== 'upsert') throw badRequest(MSG.importModeInvalid)
  if (!TRUE.has(dryRun) && !FALSE.has(dryRun)) throw badRequest(MSG.importDryRunInvalid)
  if (!TRUE.has(allowSuperAdmin) && !FALSE.has(allowSuperAdmin))
    throw badRequest(MSG.importAllowSuperAdminInvalid)
  if (!file || file.buffer.length === 0) throw badRequest(MSG.importNoFile)
  return {
    mode,
    dryRun: TRUE.has(dryRun),
    allowSuperAdmin: TRUE.has(allowSuperAdmin),
    sheet: await readUpload(file.buffer, file.name, columns),
    fileName: cleanFileName(file.name),
  }
}
