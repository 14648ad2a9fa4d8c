import Fastify, { type FastifyInstance } from 'fastify'
import { AjvCompiler } from '@fastify/ajv-compiler'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import { API_PREFIX, MESSAGE_KEYWORD, NAME_KEYWORD, NAME_SEARCH_KEYWORD } from '@amg/contract'
import type { Database } from './db/connection'
import { Authorizer } from './auth/authorizer'
import { installAuthHooks } from './auth/hook'
import { ChangeWatch } from './cache/change-watch'
import { SessionCache } from './cache/session-cache'
import { UsageRecorder } from './auth/usage'
import { PowerGuard } from './auth/power'
import { configurePasswordHashing } from './auth/password'
import { hashingLimits, type Config } from './config'
import { Links } from './modules/links/service'
import { registerConsole } from './lib/console-static'
import { installClientErrorHandler, installErrorHandler } from './lib/error-handler'
import { installInputGuard } from './lib/input-guard'
import { installNameGuard } from './lib/name-guard'
import { installCompression } from './lib/compression'
import { RequestLog } from './lib/request-log'
import { lazyRequestLogger } from './lib/request-logger'
import { API_DOCS_PREFIX, installSecurityHeaders } from './lib/security-headers'
import { installOperationLog } from './audit/operation-log'
import { requestScopedDb } from './db/request-transaction'
import { RouteCatalogue } from './lib/route-catalogue'
import type { AppContext } from './modules/context'
import { apiModules } from './modules'
import { mountOidc, oidcHost } from './modules/oidc/mount'
import { SecretBox } from './lib/secret-box'
import { LoginThrottle } from './auth/login-throttle'
import { ForwardFastPath } from './modules/authz/forward-fast-path'
import { CheckFastPath } from './modules/authz/check-fast-path'
import { installPgliteUpkeep } from './db/pglite-upkeep'
import { DeliveriesCommitted } from './events/committed'
import { scimPlugin, SCIM_PREFIX } from './modules/scim/plugin'

export interface BuildOptions {
  config: Config
  database: Database
  logger?: boolean
  /** where log lines go (tests capture them); standard output by default */
  logStream?: { write(line: string): void }
  /** the operation log; off only to measure what it costs (scripts/measure-audit.ts) */
  audit?: boolean
  /** the change events (outbox) written with each change; off only to measure what they cost (scripts/bench/events.ts) */
  events?: boolean
}

/**
 * The request validators of every app this process builds, compiled once. Each app would otherwise
 * have its own Ajv and compile every route's schemas again; the schemas and options are the same
 * module-level objects for all of them (tests build hundreds of apps in a process). Ajv keeps what it
 * compiled by schema, and the pool by the Ajv options and shared schemas, so an app with other
 * options would get an Ajv of its own.
 */
const sharedValidators = AjvCompiler()

/** Builds the whole server: plugins, the API under /api, the console at / (server.ts listens). */
export async function buildApp({
  config,
  database,
  logger = true,
  logStream,
  audit = true,
  events = true,
}: BuildOptions): Promise<FastifyInstance> {
  configurePasswordHashing(config.passwordHashCost, hashingLimits(config))
  const forwardFastPath = new ForwardFastPath()
  const app = Fastify({
    serverFactory: forwardFastPath.serverFactory,
    logger: logger
      ? {
          level: config.logLevel,
          ...(logStream ? { stream: logStream } : {}),
          redact: [
            'req.headers["x-auth-token"]',
            'req.headers.cookie',
            '*.password',
            '*.oldPassword',
            '*.newPassword',
          ],
        }
      : false,
    // coerceTypes true, not Fastify's default 'array': an array where a scalar is expected is refused,
    // never taken apart into its first item
    // the contract's own keywords: texts of messages and the marks of name fields (lib/name-guard.ts)
    ajv: {
      customOptions: {
        verbose: true,
        keywords: [MESSAGE_KEYWORD, NAME_KEYWORD, NAME_SEARCH_KEYWORD],
        coerceTypes: true,
      },
    },
    schemaController: { compilersFactory: { buildValidator: sharedValidators } },
    bodyLimit: 1024 * 1024,
    // one line per request, reads only at debug (lib/request-log.ts)
    logController: new RequestLog(),
    // a request's child logger is made only when the request writes a line (lib/request-logger.ts)
    childLoggerFactory: lazyRequestLogger,
    trustProxy: fastifyTrustProxy(config.trustProxy),
    clientErrorHandler: installClientErrorHandler,
  }).withTypeProvider<TypeBoxTypeProvider>()

  // modules see the running write request's transaction through this (db/request-transaction.ts)
  const db = requestScopedDb(database.db)
  // made first: each cache, the modules' list caches too, asks it to watch its family as it is made
  const changes = new ChangeWatch(db, database)
  const authz = new Authorizer(db, database, changes)
  const sessions = new SessionCache(db, database, changes)
  const power = new PowerGuard(authz)
  // DESIGN.md §21: allowed decisions of users' own calls, flushed once a minute and on close
  const usage = new UsageRecorder(database.db, authz, config.usageFlushSeconds, app.log)
  usage.enabled = config.usageRecording
  authz.usage = usage
  const box = SecretBox.fromConfig(config)
  const oidc = oidcHost(db, authz, box, config, { database, changes })
  await oidc.load()
  const ctx: AppContext = {
    config,
    database,
    db,
    authz,
    sessions,
    changes,
    power,
    links: new Links(db, power),
    catalogue: new RouteCatalogue(),
    deliveriesCommitted: new DeliveriesCommitted(),
    loginThrottle: LoginThrottle.for(config, database),
    box,
    oidc,
    usage,
  }
  app.decorate('ctx', ctx)
  usage.start()
  app.addHook('onClose', () => usage.stop())
  forwardFastPath.serve(ctx, app.log)
  installErrorHandler(app)
  acceptEmptyJsonBodies(app)

  installSecurityHeaders(app)
  await installCompression(app)
  await app.register(swagger, {
    openapi: {
      info: {
        title: '权限管理系统 API',
        version: '1.0.0',
        description: '所有接口都在 /api 之下，返回 { code, msg, data }',
      },
      components: { securitySchemes: { token: { type: 'apiKey', in: 'header', name: 'x-auth-token' } } },
      security: [{ token: [] }],
    },
  })
  await app.register(swaggerUi, { routePrefix: API_DOCS_PREFIX, staticCSP: true })

  // DESIGN.md §16: the OpenID Connect provider under /oidc, its login and consent calls beside it
  await mountOidc(app, oidc, database)

  await app.register(
    async (api) => {
      api.addHook('onRoute', (route) => ctx.catalogue.addRoute(route))
      const { heldCaller } = installAuthHooks(api, { ...ctx, machineTokens: oidc })
      forwardFastPath.serveCheck(new CheckFastPath({ authz, heldCaller }, app.log))
      installInputGuard(api)
      installNameGuard(api)
      if (audit) installOperationLog(api, database.db, { events, committed: ctx.deliveriesCommitted })
      for (const module of apiModules) await api.register(module)
    },
    { prefix: API_PREFIX },
  )

  // DESIGN.md §22: the SCIM 2.0 server, beside the API with its own errors and authentication
  await app.register(scimPlugin({ audit, events, committed: ctx.deliveriesCommitted }), {
    prefix: SCIM_PREFIX,
  })

  if (database.kind === 'pglite') installPgliteUpkeep(app, database.db)

  // the built console at / with its history fallback; 404 for everything else (lib/console-static.ts)
  await registerConsole(app, config.webDist)

  return app
}

/**
 * TRUST_PROXY as Fastify takes it. Fastify 5 no longer honours a bare hop count (it cannot check who
 * the nearest peer is), so a count becomes the hop rule itself: trust the nearest `hops` addresses.
 */
function fastifyTrustProxy(trust: Config['trustProxy']) {
  if (typeof trust !== 'number') return trust
  return trust > 0 ? (_address: string, hop: number) => hop < trust : false
}

/**
 * Clients often send `content-type: application/json` on a POST whose parameters are all in the query;
 * an empty body then means "no body", not an error. Anything else goes through Fastify's own parser
 * (with its prototype-poisoning protection).
 */
function acceptEmptyJsonBodies(app: FastifyInstance) {
  const parseJson = app.getDefaultJsonParser('error', 'ignore')
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    if (typeof body === 'string' && body.trim() === '') return done(null, undefined)
    parseJson(req, String(body), done)
  })
}
