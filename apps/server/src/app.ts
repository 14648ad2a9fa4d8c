import fs from 'node:fs'
import path from 'node:path'
import Fastify, { type FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import helmet from '@fastify/helmet'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import fastifyStatic from '@fastify/static'
import { API_PREFIX, MESSAGE_KEYWORD, MSG } from '@amg/contract'
import type { Config } from './config'
import type { Database } from './db/connection'
import { Authorizer } from './auth/authorizer'
import { installAuthHooks } from './auth/hook'
import { PowerGuard } from './auth/power'
import { configurePasswordHashing } from './auth/password'
import { Links } from './modules/links/service'
import { installClientErrorHandler, installErrorHandler } from './lib/error-handler'
import { installInputGuard } from './lib/input-guard'
import { installOperationLog } from './audit/operation-log'
import { requestScopedDb } from './audit/request-transaction'
import { RouteCatalogue } from './lib/route-catalogue'
import type { AppContext } from './lib/context'
import { apiModules } from './modules'

export interface BuildOptions {
  config: Config
  database: Database
  logger?: boolean
  /** where log lines go (tests capture them); standard output by default */
  logStream?: { write(line: string): void }
  /** the operation log; off only to measure what it costs (scripts/measure-audit.ts) */
  audit?: boolean
}

/** Builds the whole server: plugins, the API under /api, the console at / (server.ts listens). */
export async function buildApp({
  config,
  database,
  logger = true,
  logStream,
  audit = true,
}: BuildOptions): Promise<FastifyInstance> {
  configurePasswordHashing(config.passwordHashCost)
  const app = Fastify({
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
    ajv: { customOptions: { verbose: true, keywords: [MESSAGE_KEYWORD], coerceTypes: true } },
    bodyLimit: 1024 * 1024,
    trustProxy: fastifyTrustProxy(config.trustProxy),
    clientErrorHandler: installClientErrorHandler,
  }).withTypeProvider<TypeBoxTypeProvider>()

  // modules see the running write request's transaction through this (audit/request-transaction.ts)
  const db = requestScopedDb(database.db)
  const authz = new Authorizer(db, database)
  const power = new PowerGuard(authz)
  const ctx: AppContext = {
    config,
    database,
    db,
    authz,
    power,
    links: new Links(db, power),
    catalogue: new RouteCatalogue(),
  }
  app.decorate('ctx', ctx)
  installErrorHandler(app)
  acceptEmptyJsonBodies(app)

  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        mediaSrc: ["'self'", 'blob:'],
        scriptSrc: ["'self'"],
        connectSrc: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
  })
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
  await app.register(swaggerUi, { routePrefix: `${API_PREFIX}/docs`, staticCSP: true })

  await app.register(
    async (api) => {
      api.addHook('onRoute', (route) => {
        const methods = Array.isArray(route.method) ? route.method : [route.method]
        for (const method of methods) {
          if (method === 'HEAD') continue
          ctx.catalogue.add({
            method,
            url: route.url.slice(API_PREFIX.length),
            group: (route.schema?.tags as string[] | undefined)?.[0] ?? '其他',
            summary: (route.schema?.summary as string | undefined) ?? route.url,
          })
        }
      })
      installAuthHooks(api)
      installInputGuard(api)
      if (audit) installOperationLog(api, database.db)
      for (const module of apiModules) await api.register(module)
    },
    { prefix: API_PREFIX },
  )

  const indexHtml = path.join(config.webDist, 'index.html')
  const hasConsole = fs.existsSync(indexHtml)
  if (hasConsole) await app.register(fastifyStatic, { root: config.webDist, wildcard: false, index: false })

  app.setNotFoundHandler((req, reply) => {
    const urlPath = req.url.split('?')[0]
    if (
      urlPath === API_PREFIX ||
      urlPath.startsWith(`${API_PREFIX}/`) ||
      !hasConsole ||
      req.method !== 'GET'
    ) {
      return reply.status(404).send({ code: 404, msg: MSG.notFoundApi, data: null })
    }
    // History fallback: a deep link such as /usermanage loads the console.
    return reply.type('text/html').header('cache-control', 'no-cache').sendFile('index.html')
  })

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
