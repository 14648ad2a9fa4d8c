import type { IncomingMessage, ServerResponse } from 'node:http'
import type { FastifyBaseLogger } from 'fastify'
import { TypeCompiler } from '@sinclair/typebox/compiler'
import { API_PREFIX, authzApi, findUnsafeInput, type AuthzCheckBody } from '@amg/contract'
import type { AppContext } from '../context'
import { sessionTokenOf, type HeldCaller } from '../../auth/hook'
import { logsAt } from '../../lib/request-log'
import { ok } from '../../lib/reply'
import { JSON_ANSWER_HEADERS } from '../../lib/security-headers'
import { checkFromMemory } from './service'

/** The one URL answered here: the check call, without a query (a query goes to Fastify's input guard). */
export const CHECK_URL = `${API_PREFIX}${authzApi.check.route.path}`

/** How many checks this process answered here (tests tell the two paths apart by it). */
export const checkFastPathCount = { answered: 0 }

/** Larger bodies go to Fastify (its limit and messages); a check's body is a few dozen bytes. */
const MAX_BODY = 16 * 1024

const bodySchema = authzApi.check.schema.body
const bodyFields = new Set(Object.keys(bodySchema.properties))
/** The contract's own schema of the body, checked exactly: no coercion, no defaults. */
const bodyMatches = TypeCompiler.Compile(bodySchema)

/** `application/json`, bare or with charset utf-8: what Fastify's JSON parser reads the same way. */
const JSON_BODY = /^application\/json(;\s*charset=utf-8)?$/i

type Fastify = (req: IncomingMessage, res: ServerResponse) => void

/** A check's body being read: where it goes once whole. */
interface BodyReading {
  path: CheckFastPath
  res: ServerResponse
  fastify: Fastify
  caller: HeldCaller
  length: number
  chunks: Buffer[]
  size: number
}

const READING = Symbol('check body reading')
type Reading = IncomingMessage & { [READING]?: BodyReading }

/** A listener of the request being read (shared: `this` is the request). */
function onData(this: Reading, chunk: Buffer) {
  const reading = this[READING]!
  reading.chunks.push(chunk)
  reading.size += chunk.length
  // the parser frames the body by its length: all of it is here once that many bytes came
  if (reading.size < reading.length) return
  stopReading(this)
  reading.path.received(this, reading)
}

function onError(this: Reading) {
  const reading = this[READING]!
  stopReading(this)
  reading.res.destroy()
}

function stopReading(req: Reading) {
  req.removeListener('data', onData)
  req.removeListener('error', onError)
  req[READING] = undefined
}

/** The bits of the context the check call reads. */
export type CheckContext = Pick<AppContext, 'authz'> & {
  /** the auth hook's own reading of a caller held in memory (auth/hook.ts) */
  heldCaller(headers: IncomingMessage['headers']): HeldCaller | undefined
}

/**
 * `POST /api/authz/check` answered before Fastify, for the one answer that is all a machine client or a
 * front end asking "may I?" usually gets: a 200 for a caller held in memory with a body the route's
 * schema takes as it is (DESIGN.md §10a). Fastify's per-request work (request and reply objects, four
 * hook chains, the body parser, the schema's validation and serialization) cost more than the decision,
 * which comes from memory.
 *
 * Everything else goes to Fastify, which then gives the answer it always gives: any other header set
 * (another content type, an encoded, chunked or large body, a query string), a caller the auth hook
 * would have to look up, refuse or restrict, a body the schema would refuse, coerce or strip, or unsafe
 * input, a decision memory cannot make alone (another user's check, an access or a tree not held) and
 * any error of the decision (a refused path, an unknown service: the route asks again and its error
 * handler speaks). The body read here is put back on the request for Fastify to read. The route's own
 * decision answers here (`checkFromMemory`, service.ts, which `check` asks first), without a promise,
 * with the same envelope and headers, and as a successful read is logged only at debug, the path is
 * not taken while that level is on (Fastify logs the line).
 */
export class CheckFastPath {
  constructor(
    private readonly ctx: CheckContext,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Whether the request is one this path may take, from its headers alone. */
  private takes(req: IncomingMessage): { caller: HeldCaller; length: number } | undefined {
    const h = req.headers
    if (h['transfer-encoding'] !== undefined || h['content-encoding'] !== undefined) return undefined
    const type = h['content-type']
    if (type === undefined || !JSON_BODY.test(type)) return undefined
    const lengthHeader = h['content-length']
    if (lengthHeader === undefined || !/^[0-9]{1,5}$/.test(lengthHeader)) return undefined
    const length = Number(lengthHeader)
    if (length === 0 || length > MAX_BODY) return undefined
    if (logsAt(this.log, 'debug')) return undefined
    const caller = this.ctx.heldCaller(h)
    return caller ? { caller, length } : undefined
  }

  /**
   * Answers the request or passes it to `fastify`. Called only for `POST` of exactly `CHECK_URL`.
   * (No closure per request: the server runs under tsx, whose kept function names make each one cost;
   * the body's reading is kept on the request itself.)
   */
  handle(req: IncomingMessage, res: ServerResponse, fastify: Fastify) {
    const taken = this.takes(req)
    if (!taken) return fastify(req, res)
    ;(req as Reading)[READING] = {
      path: this,
      res,
      fastify,
      caller: taken.caller,
      length: taken.length,
      chunks: [],
      size: 0,
    }
    req.on('data', onData)
    req.on('error', onError)
  }

  /** The whole body is here: answered at once from memory, or handed on. */
  received(req: IncomingMessage, reading: BodyReading) {
    const raw = Buffer.concat(reading.chunks, reading.size)
    const body = this.bodyOf(raw)
    const result = body && this.decide(req, reading.caller.user.id, body)
    if (result) return this.send(reading.res, reading.caller, result)
    // Held back, the body goes back on the request (a copy: never a view of the socket's buffer), so
    // Fastify reads it from the start, and the request cannot end before it is read.
    req.pause()
    req.unshift(raw)
    reading.fastify(req, reading.res)
  }

  /**
   * The route's own decision when memory holds all it needs (`checkFromMemory`); undefined for
   * anything else, and for any error of the decision, which is the route's to answer: it asks again
   * and its error handler speaks.
   */
  private decide(req: IncomingMessage, callerId: number, body: AuthzCheckBody) {
    try {
      // no session token (read as the hook reads it, as the route's `req.token`): an API key or a
      // machine token asked, and an allowed answer is use (DESIGN.md §21)
      const asUse = sessionTokenOf(req.headers) === null
      return checkFromMemory(this.ctx.authz, callerId, body, asUse)
    } catch {
      return undefined
    }
  }

  /** The body when the route's schema takes it exactly as sent and the input guard has nothing to say. */
  private bodyOf(raw: Buffer): AuthzCheckBody | undefined {
    let body: unknown
    try {
      body = JSON.parse(raw.toString('utf8'))
    } catch {
      return undefined
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined
    // a field the schema does not know (`__proto__` among them) is Fastify's to judge
    for (const key of Object.keys(body)) if (!bodyFields.has(key)) return undefined
    if (!bodyMatches.Check(body) || findUnsafeInput(body)) return undefined
    return body
  }

  private send(res: ServerResponse, caller: HeldCaller, result: unknown) {
    caller.touch(this.log)
    const payload = JSON.stringify(ok(result))
    res.writeHead(200, [...JSON_ANSWER_HEADERS, 'content-length', String(Buffer.byteLength(payload))])
    res.end(payload)
    checkFastPathCount.answered++
  }
}
