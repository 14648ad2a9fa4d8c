import path from 'node:path'
import type { Readable } from 'node:stream'
import { randomBytes, randomUUID } from 'node:crypto'
import type { FastifyRequest } from 'fastify'
import { and, eq, gt } from 'drizzle-orm'
import {
  DEFAULT_KEEP_TIME,
  FILE_DOWNLOAD_ALL_CODE,
  FILE_MSG,
  KEEP_TIMES,
  downloadUrl,
  isKeepTime,
  uploadTooLarge,
  type KeepTime,
  type UploadResult,
} from '@amg/contract'
import type { Authorizer } from '../../auth/authorizer'
import type { Db } from '../../db/connection'
import { files } from '../../db/schema'
import { AppError, badRequest, notFound } from '../../lib/errors'
import type { FileStore } from './store'

/** Uploaded files are kept under random names (store.ts); the database keeps their real names. */
export { filesDir } from './store'

const MAX_NAME_LENGTH = 255
const SAFE_MIME = /^[\w.+-]+\/[\w.+-]+$/

interface ReceivedFile {
  storageName: string
  fileName: string
  mimeType: string
  size: number
  keepTime: KeepTime
}

/** The name the browser sent, without any client path, trimmed to what the column holds (keeping the extension). */
export function cleanFileName(raw: string | undefined): string {
  const base = (raw ?? '')
    .split(/[\\/]/)
    .pop()!
    // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .trim()
  if (base.length <= MAX_NAME_LENGTH) return base
  const ext = path.extname(base)
  return ext.length < 32 ? base.slice(0, MAX_NAME_LENGTH - ext.length) + ext : base.slice(0, MAX_NAME_LENGTH)
}

/**
 * Reads the multipart request part by part: the `file` part streams straight to the store (never held
 * whole in memory), `keepTime` may come before or after it. Any failure removes what was written.
 */
export async function receiveUpload(
  req: FastifyRequest,
  opts: { store: FileStore; maxMb: number },
): Promise<ReceivedFile> {
  if (!req.isMultipart()) throw new AppError(415, FILE_MSG.notMultipart)
  let keepTime: string | undefined
  let stored: { storageName: string; fileName: string; mimeType: string; size: number } | undefined
  try {
    const parts = req.parts({
      limits: {
        fileSize: Math.floor(opts.maxMb * 1024 * 1024),
        files: 1,
        fields: 10,
        fieldSize: 1024,
        parts: 20,
      },
    })
    for await (const part of parts) {
      if (part.type === 'field') {
        if (part.fieldname === 'keepTime') {
          keepTime = String(part.value ?? '').trim()
          if (!isKeepTime(keepTime)) throw badRequest(FILE_MSG.keepTimeInvalid)
        }
        continue
      }
      const fileName = cleanFileName(part.filename)
      if (part.fieldname !== 'file' || !fileName) {
        // another field, or a file input left empty: read past it
        part.file.resume()
        continue
      }
      const storageName = randomBytes(16).toString('hex')
      stored = {
        storageName,
        size: 0,
        fileName,
        mimeType:
          part.mimetype && SAFE_MIME.test(part.mimetype) && part.mimetype.length <= 128
            ? part.mimetype
            : 'application/octet-stream',
      }
      stored.size = await opts.store.write(storageName, part.file)
    }
    if (keepTime !== undefined && keepTime !== '' && !isKeepTime(keepTime))
      throw badRequest(FILE_MSG.keepTimeInvalid)
    if (!stored) throw badRequest(FILE_MSG.fileRequired)
    return {
      storageName: stored.storageName,
      fileName: stored.fileName,
      mimeType: stored.mimeType,
      size: stored.size,
      keepTime: keepTime && isKeepTime(keepTime) ? keepTime : DEFAULT_KEEP_TIME,
    }
  } catch (err) {
    if (stored) await opts.store.remove([stored.storageName])
    throw uploadError(err, req, opts.maxMb)
  }
}

/** Multipart failures as Chinese 4xx answers; disk and other server failures stay errors. */
function uploadError(err: unknown, req: FastifyRequest, maxMb: number): unknown {
  if (err instanceof AppError) return err
  const errors = req.server.multipartErrors
  if (err instanceof errors.RequestFileTooLargeError) return new AppError(413, uploadTooLarge(maxMb))
  if (err instanceof errors.FilesLimitError) return badRequest(FILE_MSG.tooManyFiles)
  const e = err as NodeJS.ErrnoException
  if (e && (e.syscall || e.errno)) return err // a disk problem is a server error, logged as such
  return badRequest(FILE_MSG.badMultipart)
}

export async function saveFileRecord(
  db: Db,
  received: ReceivedFile,
  uploaderId: number,
  store: FileStore,
): Promise<UploadResult> {
  const now = new Date()
  const expireTime = new Date(now.getTime() + KEEP_TIMES[received.keepTime] * 1000)
  // random, not the row's sequence number: knowing one file's id tells nothing about another's
  const publicId = randomUUID()
  try {
    await db.insert(files).values({
      publicId,
      fileName: received.fileName,
      storageName: received.storageName,
      mimeType: received.mimeType,
      size: received.size,
      uploaderId,
      createTime: now,
      expireTime,
    })
    return {
      fileId: publicId,
      fileName: received.fileName,
      size: received.size,
      url: downloadUrl(publicId),
      expireTime: expireTime as unknown as string, // serialized as ISO 8601
    }
  } catch (err) {
    await store.remove([received.storageName]).catch(() => {})
    throw err
  }
}

export interface OpenedFile {
  fileName: string
  mimeType: string | null
  size: number
  stream: Readable
}

/** Who asks for a file: its uploader may always have it; `all` (super admin or file:download-all) any. */
export interface FileReader {
  userId: number
  all: boolean
}

export async function fileReader(authz: Authorizer, userId: number): Promise<FileReader> {
  const access = await authz.resolve(userId)
  return { userId, all: access.superAdmin || access.authCodes.includes(FILE_DOWNLOAD_ALL_CODE) }
}

/**
 * An unexpired file the reader may have, opened for reading. Unknown, expired, missing on disk and
 * someone else's file all answer the same 404, so a file's existence is never revealed to those
 * who may not download it.
 */
export async function openFile(
  db: Db,
  store: FileStore,
  fileId: string,
  reader: FileReader,
): Promise<OpenedFile> {
  const [row] = await db
    .select()
    .from(files)
    .where(
      and(
        eq(files.publicId, fileId.toLowerCase()),
        gt(files.expireTime, new Date()),
        reader.all ? undefined : eq(files.uploaderId, reader.userId),
      ),
    )
  if (!row) throw notFound(FILE_MSG.fileNotFound)
  const bytes = await store.open(row.storageName)
  if (!bytes) throw notFound(FILE_MSG.fileNotFound)
  return { fileName: row.fileName, mimeType: row.mimeType, size: bytes.size, stream: bytes.stream }
}

/** `attachment` or `inline`, with an ASCII fallback name and the real (e.g. Chinese) name as RFC 5987 `filename*`. */
export function contentDisposition(
  fileName: string,
  disposition: 'inline' | 'attachment' = 'attachment',
): string {
  const fallback = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_') || 'download'
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  )
  return `${disposition}; filename="${fallback}"; filename*=UTF-8''${encoded}`
}
