import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import multipart from '@fastify/multipart'
import { fileApi } from '@amg/contract'
import { ok } from '../../lib/reply'
import { route } from '../../lib/route'
import { currentUser } from '../../lib/context'
import { contentDisposition, fileReader, openFile, receiveUpload, saveFileRecord } from './service'
import { servedAs } from './serve-type'
import { sweepExpiredFiles } from './sweep'
import { fileStoreFor, filesDir } from './store'
import { moveFilesIntoDatabase } from './move-to-database'
import { beforeTransaction } from '../../lib/before-transaction'

export const fileRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, database, config, authz } = app.ctx
  // DESIGN.md §19: the bytes in PostgreSQL (any instance serves them) or under DATA_DIR (embedded)
  const store = fileStoreFor(database, config.dataDir)
  if (database.kind === 'postgres') {
    const { moved, missing } = await moveFilesIntoDatabase(database.db, config.dataDir)
    if (moved || missing)
      app.log.info(
        { moved, missing, from: filesDir(config.dataDir) },
        'uploaded files moved into the database (the originals are left in place)',
      )
  }

  // Only this module accepts multipart bodies; limits are set again per request in receiveUpload.
  await app.register(multipart, {
    limits: {
      fileSize: Math.floor(config.uploadMaxMb * 1024 * 1024),
      files: 1,
      fields: 10,
      fieldSize: 1024,
      parts: 20,
    },
  })

  // The upload streams to the store before the write's transaction opens: a slow client must not hold a
  // connection idle in a transaction. A file whose row then fails is swept as a leftover (sweep.ts).
  const upload = beforeTransaction((req) => receiveUpload(req, { store, maxMb: config.uploadMaxMb }))

  route(
    app,
    fileApi.upload,
    async (req) =>
      ok(await saveFileRecord(db, upload.resultFor(req), currentUser(req).id, store), '上传成功'),
    {
      validatorCompiler: () => () => true,
      // the size limit is this installation's
      schema: {
        description: `multipart：file 为文件，keepTime 为保存时长（30m、1h、7d，默认 1h）；大小上限 ${config.uploadMaxMb}MB`,
      },
      preHandler: upload.preHandler,
    },
  )
  route(app, fileApi.download, async (req, reply) => {
    const reader = await fileReader(authz, currentUser(req).id)
    const file = await openFile(db, store, req.query.fileId, reader)
    const served = servedAs(file.fileName, file.mimeType)
    return (
      reply
        .header('content-type', served.contentType)
        .header('content-length', String(file.size))
        .header('content-disposition', contentDisposition(file.fileName, served.disposition))
        // the browser must keep the type given here, never guess an active one from the bytes
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-store')
        .send(file.stream)
    )
  })

  if (config.fileSweepSeconds > 0) {
    const timer = setInterval(() => {
      sweepExpiredFiles(db, store).catch((err) => app.log.error({ err }, 'file sweep failed'))
    }, config.fileSweepSeconds * 1000)
    timer.unref()
    app.addHook('onClose', async () => clearInterval(timer))
  }
}
