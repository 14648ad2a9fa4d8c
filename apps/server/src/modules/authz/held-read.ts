import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http'
import type { FastifyBaseLogger } from 'fastify'
import type { HeldCaller } from '../../auth/hook'
import { logsAt } from '../../lib/request-log'
import type { FastRead } from './forward-fast-path'

/** A kept answer's headers (names and values one after the other, as `writeHead` takes them) and bytes. */
export type KeptAnswer = [headers: readonly string[], body: string | Buffer]

/** What the route would answer this caller, when it is kept; undefined to leave it to the route. */
export type KeptFor = (caller: HeldCaller, headers: IncomingHttpHeaders) => KeptAnswer | undefined

/**
 * A GET of a route that needs a session, answered before Fastify with an answer the route made and
 * keeps, when the caller is one the auth hook would admit at once (`heldCaller`): the same bytes and
 * headers as the route's, without Fastify's per-request work (its request and reply objects, the hook
 * chains, the request log's child logger), which costs more than sending a kept answer. Anything else
 * (a body, a caller to look up, refuse or restrict, the debug log level, under which Fastify logs
 * every read, no kept answer for this caller) goes to Fastify, whose route gives the answer it always
 * gives. No closure per request (see forward-fast-path.ts).
 */
export class HeldRead implements FastRead {
  constructor(
    private readonly heldCaller: (headers: IncomingHttpHeaders) => HeldCaller | undefined,
    private readonly log: FastifyBaseLogger,
    private readonly keptFor: KeptFor,
    /** how many answers were given here (tests tell the two paths apart by it) */
    private readonly count: { answered: number },
  ) {}

  take(req: IncomingMessage, res: ServerResponse): boolean {
    const h = req.headers
    if (h['content-length'] !== undefined || h['transfer-encoding'] !== undefined) return false
    if (logsAt(this.log, 'debug')) return false
    const caller = this.heldCaller(h)
    const answer = caller === undefined ? undefined : this.keptFor(caller, h)
    if (answer === undefined) return false
    caller!.touch(this.log)
    const [headers, body] = answer
    res.writeHead(200, [...headers, 'content-length', String(Buffer.byteLength(body))])
    res.end(body)
    this.count.answered++
    return true
  }
}
