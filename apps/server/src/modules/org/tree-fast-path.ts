import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http'
import type { FastifyBaseLogger } from 'fastify'
import { API_PREFIX, orgApi } from '@amg/contract'
import type { Authorizer } from '../../auth/authorizer'
import type { HeldCaller } from '../../auth/hook'
import type { VersionedCache } from '../../cache/versioned-cache'
import { logsAt } from '../../lib/request-log'
import { API_SECURITY_HEADERS } from '../../lib/security-headers'
import type { FastRead } from '../authz/forward-fast-path'
import { acceptedEncoding, encoded, type TreePayload } from './tree-payload'

/** The whole tree's URL: a query (a part of the tree) goes to Fastify. */
export const TREE_URL = `${API_PREFIX}${orgApi.tree.route.path}`

/** How many whole trees this process answered here (tests tell the two paths apart by it). */
export const treeFastPathCount = { answered: 0 }

/**
 * The headers of each encoding's answer, worked out once (the route sets them in this order), as
 * names and values one after the other, as `writeHead` takes them.
 */
const headersFor = (encoding: 'br' | 'gzip' | null): string[] =>
  [
    ...Object.entries(API_SECURITY_HEADERS),
    ['content-type', 'application/json; charset=utf-8'],
    ['vary', 'accept-encoding'],
    ...(encoding ? [['content-encoding', encoding]] : []),
  ].flat()
const HEADERS = { br: headersFor('br'), gzip: headersFor('gzip'), none: headersFor(null) }

/**
 * `GET /api/org/tree` (the whole tree) answered before Fastify when it is kept (serialized and
 * compressed once per version) and the caller is one the auth hook would admit at once and who reads
 * all data: the same bytes and headers as the route's answer, without Fastify's per-request work
 * (its request and reply objects, the hook chains, the request log's child logger), which cost more
 * than sending a kept answer. Anything else (no kept answer yet, a body, a caller to look up, refuse,
 * restrict or cut to a scope, the debug log level, under which Fastify logs every read) goes to
 * Fastify, whose route gives the answer it always gives. No closure per request (see
 * forward-fast-path.ts).
 */
export class TreeFastPath implements FastRead {
  constructor(
    private readonly whole: VersionedCache,
    private readonly authz: Pick<Authorizer, 'scopeFromMemory'>,
    private readonly heldCaller: (headers: IncomingHttpHeaders) => HeldCaller | undefined,
    private readonly log: FastifyBaseLogger,
  ) {}

  take(req: IncomingMessage, res: ServerResponse): boolean {
    const h = req.headers
    if (h['content-length'] !== undefined || h['transfer-encoding'] !== undefined) return false
    const payload = this.whole.peek<TreePayload>('tree')
    if (payload === undefined || logsAt(this.log, 'debug')) return false
    const caller = this.heldCaller(h)
    if (caller === undefined) return false
    const scope = this.authz.scopeFromMemory(caller.user.id, 'GET', orgApi.tree.route.path)
    if (!scope?.all) return false
    caller.touch(this.log)
    const encoding = acceptedEncoding(h['accept-encoding'])
    const body = encoding ? encoded(payload, encoding) : payload.json
    res.writeHead(200, [...HEADERS[encoding ?? 'none'], 'content-length', String(Buffer.byteLength(body))])
    res.end(body)
    treeFastPathCount.answered++
    return true
  }
}
