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
import {
  FORWARD_METHODS,
  forwardService,
  forwardUserHeaders,
  forwardedUser,
  heldForwardAnswer,
  type ForwardAnswer,
} from './forward'
import { JSON_TYPE } from '../../lib/reply'

const METHODS = new Set<string>(FORWARD_METHODS)

/**
 * Of the API's security headers (lib/security-headers.ts) only `nosniff` means anything here: the
 * answer is read by a gateway, which passes on at most the X-Auth-User-* and X-Auth-Data-Scope headers or the JSON refusal.
 */
const FIXED_HEADERS = [
  'x-content-type-options',
  API_SECURITY_HEADERS['x-content-type-options'],
  'content-type',
  JSON_TYPE,
]

/** The envelope of an answer with its length. */
function envelope(status: number, msg: string): [body: string, length: string] {
  const body = JSON.stringify({ code: status, msg, data: null })
  return [body, String(Buffer.byteLength(body))]
}

/** A 200's envelope is always the same: made once, not per answer. */
const SUCCESS = envelope(200, MSG.success)

/**
 * A GET answered before Fastify when it can be (a kept answer for a caller memory holds): `take`
 * answers the request and says true, or says false and leaves it to Fastify untouched.
 */
export interface FastRead {
  take(req: IncomingMessage, res: ServerResponse): boolean
}

/** Where a module registers its fast reads: on the app's HTTP server (`fastReadsOf(app.server)`). */
export interface FastReads {
  serveRead(url: string, read: FastRead): void
}

const FAST_READS = Symbol('fast reads')

/** The fast reads of the server a `ForwardFastPath` made; undefined for any other server. */
export const fastReadsOf = (server: object): FastReads | undefined =>
  (server as { [FAST_READS]?: FastReads })[FAST_READS]

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
export class ForwardFastPath implements FastReads {
  private ctx: Pick<AppContext, 'sessions' | 'authz'> | undefined
  private log: FastifyBaseLogger | undefined
  private check: CheckFastPath | undefined
  /** GETs of exactly these URLs (no query) that a module answers itself when it can */
  private readonly reads = new Map<string, FastRead>()

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
      else if (req.method !== 'GET' || !this.reads.get(req.url ?? '')?.take(req, res)) handler(req, res)
    })
    ;(server as { [FAST_READS]?: FastReads })[FAST_READS] = this
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

  /** A GET of exactly `url` offered to `read` first (a module's kept answer: org/tree-fast-path.ts). */
  serveRead(url: string, read: FastRead) {
    this.reads.set(url, read)
  }

  /** `POST /api/authz/check` answered before Fastify too, once the auth hook is there (check-fast-path.ts). */
  serveCheck(check: CheckFastPath) {
    this.check = check
  }

  /**
   * Nothing of the answer may take the process down; the connection is dropped instead. (No closure
   * per request: the server runs under tsx, whose kept function names make each one cost.) The usual
   * 200, decided from memory, is sent without a promise (`heldForwardAnswer`); anything else is
   * `forwardedUser`'s to answer.
   */
  private answerSafely(req: IncomingMessage, res: ServerResponse, service: string) {
    const started = this.timed(200) ? performance.now() : 0
    let held: ForwardAnswer | undefined
    try {
      held = heldForwardAnswer(this.ctx!.sessions, this.ctx!.authz, req.headers, service)
    } catch {
      // the answer below gives whatever this was
    }
    // anything but the usual answer is timed, whatever its level (the decision so far took microseconds)
    if (!held)
      return void this.answer(req, res, service, started || performance.now()).catch(
        this.failed.bind(this, res),
      )
    try {
      this.send(req, res, started, 200, MSG.success, held)
    } catch (err) {
      this.failed(res, err as Error)
    }
  }

  private failed(res: ServerResponse, err: Error) {
    this.log?.error({ err: { message: err.message } }, 'forward auth answer failed')
    res.destroy()
  }

  /** Whether an answer of this status is logged, and so timed: a 200 only at debug. */
  private timed(status: number) {
    return this.log !== undefined && logsAt(this.log, requestLogLevel(status, false))
  }

  private async answer(req: IncomingMessage, res: ServerResponse, service: string, started: number) {
    try {
      const answer = await forwardedUser(this.ctx!.sessions, this.ctx!.authz, req.headers, service)
      return this.send(req, res, started, 200, MSG.success, answer)
    } catch (error) {
      if (error instanceof AppError) return this.send(req, res, started, error.status, error.message)
      // what memory does not hold cannot be decided while the database is away: refused, never guessed
      if (isDatabaseUnavailable(error))
        return this.send(req, res, started, 503, MSG.serviceUnavailable, undefined, true)
      this.log?.error({ err: loggableError(error as Error) }, 'unexpected error')
      return this.send(req, res, started, 500, MSG.serverError)
    }
  }

  /** The answer: the envelope, `nosniff`, and for a 200 the user's and the scope's headers. */
  private send(
    req: IncomingMessage,
    res: ServerResponse,
    started: number,
    status: number,
    msg: string,
    answer?: ForwardAnswer,
    retry = false,
  ) {
    // most of what a gateway's call costs here is the answer's own writing: nothing more than it needs
    const [body, length] = status === 200 ? SUCCESS : envelope(status, msg)
    const headers = [...FIXED_HEADERS, 'content-length', length]
    if (answer) headers.push(...forwardUserHeaders(answer))
    if (retry) headers.push('retry-after', String(DATABASE_RETRY_AFTER_SECONDS))
    res.writeHead(status, headers)
    res.end(body)
    this.logAnswer(req, status, answer?.user.id, started)
  }

  /**
   * As the request log (lib/request-log.ts) does for this read: failures at info, a 200 at debug
   * (`started` is 0 for a 200 answered while debug was off, which is not logged).
   */
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
