import http, { type IncomingMessage, type ServerResponse } from 'node:http'
import { performance } from 'node:perf_hooks'
import type { FastifyBaseLogger, FastifyServerFactory } from 'fastify'
import { MSG } from '@amg/contract'
import type { AppContext } from '../context'
import { AppError } from '../../lib/errors'
import { DATABASE_RETRY_AFTER_SECONDS, loggableError } from '../../lib/error-handler'
import { isDatabaseUnavailable } from '../../db/unavailable'
import { logsAt, requestLogLevel, requestLogLine } from '../../lib/request-log'
import { API_SECURITY_HEADERS } from '../../lib/security-headers'
import { CHECK_URL, type CheckFastPath } from './check-fast-path'
import { FORWARD_METHODS, forwardService, forwardUserHeaders, forwardedUser } from './forward'

const METHODS = new Set<string>(FORWARD_METHODS)

/** The path of a request target, without its query. */
const pathOf = (url: string | undefined) => {
  const q = url?.indexOf('?') ?? -1
  return q < 0 ? url : url!.slice(0, q)
}

/**
 * The HTTP server for Fastify, answering gateways' forward-auth calls itself, and the usual check
 * call (`POST /api/authz/check`, check-fast-path.ts) once the auth hook is installed.
 *
 * A gateway asks `/api/authz/forward[/<service>]` before every call it passes on, so this one path decides how
 * much a gateway can carry. Fastify's per-request work (its request and reply objects, the hook
 * chains of the API, compression, the request log) cost more than the decision itself, which comes
 * from memory. The answer is the same one the Fastify route gives (`forwardedUser`), with the same
 * envelope, security headers and log levels; only the path there is shorter. Everything else, and
 * any method the route does not take, goes to Fastify unchanged.
 *
 * The context is known only once the app is built, after Fastify has asked for its server: until
 * `serve` is called every request goes to Fastify.
 */
export class ForwardFastPath {
  private ctx: Pick<AppContext, 'sessions' | 'authz'> | undefined
  private log: FastifyBaseLogger | undefined
  private check: CheckFastPath | undefined
  /**
   * Of the API's security headers (lib/security-headers.ts) only `nosniff` means anything here: the
   * answer is read by a gateway, which passes on at most the X-Auth-User-* and X-Auth-Data-Scope headers or the JSON refusal.
   */
  private readonly fixedHeaders: [string, string][] = [
    ['x-content-type-options', API_SECURITY_HEADERS['x-content-type-options']],
    ['content-type', 'application/json; charset=utf-8'],
  ]

  /** Fastify's `serverFactory`: a plain HTTP server set up as Fastify sets up its own. */
  readonly serverFactory: FastifyServerFactory = (handler, fastifyOptions) => {
    // Fastify fills these in (its defaults included) before it asks for the server
    const options = fastifyOptions as {
      http?: http.ServerOptions | null
      keepAliveTimeout?: number
      requestTimeout?: number
      connectionTimeout?: number
      maxRequestsPerSocket?: number
    }
    const server = http.createServer(options.http ?? {}, (req, res) => {
      if (this.check && req.method === 'POST' && req.url === CHECK_URL)
        return this.check.handle(req, res, handler)
      const service = this.ctx && METHODS.has(req.method ?? '') ? forwardService(pathOf(req.url)) : undefined
      if (service !== undefined) void this.answerSafely(req, res, service)
      else handler(req, res)
    })
    if (options.keepAliveTimeout !== undefined) server.keepAliveTimeout = options.keepAliveTimeout
    if (options.requestTimeout !== undefined) server.requestTimeout = options.requestTimeout
    server.setTimeout(options.connectionTimeout ?? 0)
    if ((options.maxRequestsPerSocket ?? 0) > 0) server.maxRequestsPerSocket = options.maxRequestsPerSocket!
    return server
  }

  serve(ctx: Pick<AppContext, 'sessions' | 'authz'>, log: FastifyBaseLogger) {
    this.ctx = ctx
    this.log = log
  }

  /** `POST /api/authz/check` answered before Fastify too, once the auth hook is there (check-fast-path.ts). */
  serveCheck(check: CheckFastPath) {
    this.check = check
  }

  /**
   * Nothing of the answer may take the process down; the connection is dropped instead. (No closure
   * per request: the server runs under tsx, whose kept function names make each one cost.)
   */
  private async answerSafely(req: IncomingMessage, res: ServerResponse, service: string) {
    try {
      await this.answer(req, res, service)
    } catch (err) {
      this.log?.error({ err: { message: (err as Error).message } }, 'forward auth answer failed')
      res.destroy()
    }
  }

  private async answer(req: IncomingMessage, res: ServerResponse, service: string) {
    const started = performance.now()
    let status = 200
    let msg: string = MSG.success
    let userId: number | undefined
    const headers = [...this.fixedHeaders]
    try {
      const answer = await forwardedUser(this.ctx!.sessions, this.ctx!.authz, req.headers, service)
      userId = answer.user.id
      headers.push(...forwardUserHeaders(answer))
    } catch (error) {
      if (error instanceof AppError) {
        status = error.status
        msg = error.message
      } else if (isDatabaseUnavailable(error)) {
        // what memory does not hold cannot be decided while the database is away: refused, never guessed
        status = 503
        msg = MSG.serviceUnavailable
        headers.push(['retry-after', String(DATABASE_RETRY_AFTER_SECONDS)])
      } else {
        status = 500
        msg = MSG.serverError
        this.log?.error({ err: loggableError(error as Error) }, 'unexpected error')
      }
    }
    const body = JSON.stringify({ code: status, msg, data: null })
    headers.push(['content-length', String(Buffer.byteLength(body))])
    res.writeHead(status, headers.flat())
    res.end(body)
    this.logAnswer(req, status, userId, started)
  }

  /** As the request log (lib/request-log.ts) does for this read: failures at info, a 200 at debug. */
  private logAnswer(req: IncomingMessage, status: number, userId: number | undefined, started: number) {
    const log = this.log
    if (!log) return
    const level = requestLogLevel(status, false)
    if (!logsAt(log, level)) return
    log[level](
      requestLogLine(
        { method: req.method, url: req.url, ip: req.socket.remoteAddress },
        status,
        userId,
        performance.now() - started,
      ),
      'request completed',
    )
  }
}
