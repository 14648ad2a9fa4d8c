import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import multipart from '@fastify/multipart'
import { foldName, importApi, listExportApi, stationApi } from '@amg/contract'
import { ok } from '../../lib/reply'
import { route } from '../../lib/route'
import { currentUser } from '../../lib/context'
import { loggableError } from '../../lib/error-handler'
import { beforeTransaction } from '../../lib/before-transaction'
import {
  attachment,
  downloadStamp as stamp,
  IMPORT_MAX_BYTES,
  streamWorkbook,
  XLSX_TYPE,
} from '../../lib/workbook'
import { callerOf } from '../../auth/user-scope'
import { jobOriginOf } from '../../audit/operation-log'
import { ImportJobs, importLogSummary, importStartMsg, oneByOne } from './jobs'
import { jobStoreOf } from './shared-store'
import { receiveImport } from './upload'
import { compilerOf } from './request-checks'
import { readNameBook } from './names'
import { JobPasswords, rowNickName, USER_COLUMNS } from './user-rows'
import { NewUserChecks, userBatches } from './user-batch'
import { readSecuritySettings } from '../../auth/security-settings'
import { orgTemplate, userTemplate } from './templates'
import { exportUsers } from './user-export'
import {
  exportGroups,
  exportPositions,
  exportRoles,
  exportStations,
  GROUP_EXPORT_COLUMNS,
  POSITION_EXPORT_COLUMNS,
  ROLE_EXPORT_COLUMNS,
  STATION_EXPORT_COLUMNS,
} from './list-exports'
import { ORG_COLUMNS, importOrgRow, orgRowKey } from './org-rows'

/**
 * A query parameter that may repeat (`types=1&types=3`) is an array even when given once, so it is
 * checked by the list body's own array schema, with its messages.
 */
const repeatedQuery =
  (name: string) => (req: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void) => {
    const query = req.query as Record<string, unknown>
    if (typeof query[name] === 'string') query[name] = [query[name]]
    done()
  }

/** Import and export (DESIGN.md §15): templates, import jobs with progress and result, the user export. */
export const importRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, database, config, power, authz, changes } = app.ctx
  // jobs write through the database itself, batch by batch, never through a request's transaction
  const onError = (err: Error) => app.log.error({ err: loggableError(err) }, 'import failed unexpectedly')
  // DESIGN.md §19: on PostgreSQL every instance sees every job; the embedded database's one process keeps them
  const store = jobStoreOf(app)
  const jobs = new ImportJobs(database.db, store, changes, onError)

  // this module reads multipart bodies too (the file module's registration is its own)
  await app.register(multipart, {
    limits: { fileSize: IMPORT_MAX_BYTES, files: 1, fields: 10, fieldSize: 1024, parts: 20 },
  })

  const userUpload = beforeTransaction((req) => receiveImport(req, USER_COLUMNS))
  const orgUpload = beforeTransaction((req) => receiveImport(req, ORG_COLUMNS))

  const originOf = (req: FastifyRequest) => jobOriginOf(req, importApi.userImport.route.group)

  /**
   * A job for an uploaded sheet, its rows keyed by `keyOf` folded (a key twice in one file is refused on
   * its second row), noted in the request's operation-log row.
   */
  const startJob = async (
    req: FastifyRequest,
    kind: 'user' | 'org',
    upload: Pick<ReturnType<typeof userUpload.resultFor>, 'mode' | 'dryRun' | 'sheet' | 'fileName'>,
    ownerId: number,
    keyOf: (cells: readonly string[]) => string,
    keyName: string,
  ) => {
    const { mode, dryRun, sheet, fileName } = upload
    const job = await jobs.create({
      ...{ kind, mode, dryRun, ownerId, fileName, header: sheet.header, rows: sheet.rows, keyName },
      keyOf: (row) => foldName(keyOf(row.cells)),
    })
    req.auditNote = { summary: importLogSummary(kind, dryRun), msg: importStartMsg(job) }
    return job
  }

  const sendWorkbook = (reply: FastifyReply, ascii: string, name: string) =>
    reply
      .type(XLSX_TYPE)
      .header('content-disposition', attachment(ascii, name))
      .header('cache-control', 'no-store')

  /** A list's export: `file` (ASCII) and `name` (the sheet's, as the console names the list) stamped now. */
  const sendExport = (
    reply: FastifyReply,
    file: string,
    name: string,
    header: readonly string[],
    rows: AsyncIterable<readonly unknown[]>,
  ) => {
    const at = stamp(config.timeZone)
    return sendWorkbook(reply, `${file}-${at}.xlsx`, `${name}-${at}.xlsx`).send(
      streamWorkbook(name, header, rows),
    )
  }

  route(app, importApi.userTemplate, async (req, reply) => {
    const body = await userTemplate(db, power, await callerOf(authz, req), config.timeZone)
    return sendWorkbook(reply as FastifyReply, 'user-import-template.xlsx', '用户导入模板.xlsx').send(body)
  })

  route(app, importApi.orgTemplate, async (req, reply) => {
    const body = await orgTemplate(db, await callerOf(authz, req))
    return sendWorkbook(reply as FastifyReply, 'org-import-template.xlsx', '部门导入模板.xlsx').send(body)
  })

  const multipartExtras = {
    validatorCompiler: () => () => true,
    schema: { description: '至多 20MB、200000 行；一次只运行一个导入' },
  }

  route(
    app,
    importApi.userImport,
    async (req) => {
      const { mode, allowSuperAdmin } = userUpload.resultFor(req)
      const caller = await callerOf(authz, req)
      // names are unique ignoring case: `Bob` and `bob` in one file are the same name twice
      const job = await startJob(req, 'user', userUpload.resultFor(req), caller.id, rowNickName, '登录名')
      const compile = compilerOf(req)
      const passwords = new JobPasswords(config.initialUserPassword)
      void jobs.run(job, originOf(req), async () => {
        const [names, settings] = [await readNameBook(database.db), await readSecuritySettings(database.db)]
        const ctx = {
          power,
          caller,
          mode,
          names,
          compile,
          settings,
          allowSuperAdmin,
          timeZone: config.timeZone,
        }
        return userBatches(ctx, passwords, new NewUserChecks(power, caller, allowSuperAdmin))
      })
      return ok({ jobId: job.id })
    },
    { ...multipartExtras, preHandler: userUpload.preHandler },
  )

  route(
    app,
    importApi.orgImport,
    async (req) => {
      const { mode } = orgUpload.resultFor(req)
      const caller = await callerOf(authz, req)
      const job = await startJob(req, 'org', orgUpload.resultFor(req), caller.id, orgRowKey, '部门全称/职位')
      const origin = { ...originOf(req), resourceType: importApi.orgImport.route.group }
      const compile = compilerOf(req)
      void jobs.run(job, origin, async () => {
        // a job title the file names and nobody made yet is made as POST /station/insert makes it:
        // only by a caller who may call it (an org import changes no one's access while it runs)
        const station = stationApi.insert.route
        const mayCreateStation = await authz.can(caller.id, station.method as string, station.path)
        const ctx = { power, caller, mode, compile, mayCreateStation }
        return oneByOne((tx, row) => importOrgRow(tx, ctx, row.cells))
      })
      return ok({ jobId: job.id })
    },
    { ...multipartExtras, preHandler: orgUpload.preHandler },
  )

  route(app, importApi.job, async (req) => ok(await jobs.view(req.query.jobId, currentUser(req).id)))

  route(app, importApi.result, async (req, reply) => {
    const workbook = await jobs.result(req.query.jobId, currentUser(req).id)
    return sendWorkbook(
      reply as FastifyReply,
      `import-result-${stamp(config.timeZone)}.xlsx`,
      `导入结果-${stamp(config.timeZone)}.xlsx`,
    ).send(workbook)
  })

  route(app, importApi.userExport, async (req, reply) => {
    const caller = await callerOf(authz, req)
    const rows = exportUsers(db, req.query, caller, config.timeZone)
    return sendExport(reply as FastifyReply, 'users', '用户', USER_COLUMNS, rows)
  })

  route(
    app,
    listExportApi.roleExport,
    async (req, reply) =>
      sendExport(
        reply as FastifyReply,
        'roles',
        '角色',
        ROLE_EXPORT_COLUMNS,
        exportRoles(db, req.query, config.timeZone),
      ),
    { preValidation: repeatedQuery('types') },
  )

  route(app, listExportApi.groupExport, async (req, reply) =>
    sendExport(
      reply as FastifyReply,
      'user-groups',
      '用户组',
      GROUP_EXPORT_COLUMNS,
      exportGroups(db, req.query, config.timeZone),
    ),
  )

  route(app, listExportApi.stationExport, async (req, reply) =>
    sendExport(
      reply as FastifyReply,
      'stations',
      '职位',
      STATION_EXPORT_COLUMNS,
      exportStations(db, req.query, config.timeZone),
    ),
  )

  route(app, listExportApi.positionExport, async (req, reply) => {
    const caller = await callerOf(authz, req)
    const rows = exportPositions(db, req.query, caller)
    return sendExport(reply as FastifyReply, 'positions', '岗位', POSITION_EXPORT_COLUMNS, rows)
  })
}
