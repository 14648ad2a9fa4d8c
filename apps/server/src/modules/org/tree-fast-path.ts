import type { IncomingHttpHeaders } from 'node:http'
import type { FastifyBaseLogger } from 'fastify'
import { API_PREFIX, orgApi } from '@amg/contract'
import type { Authorizer } from '../../auth/authorizer'
import type { HeldCaller } from '../../auth/hook'
import type { VersionedCache } from '../../cache/versioned-cache'
import { JSON_TYPE } from '../../lib/reply'
import { API_SECURITY_HEADERS } from '../../lib/security-headers'
import { HeldRead, type KeptAnswer } from '../authz/held-read'
import { acceptedEncoding, encoded, type TreePayload } from './tree-payload'

/** The whole tree's URL: a query (a part of the tree) goes to Fastify. */
export const TREE_URL = `${API_PREFIX}${orgApi.tree.route.path}`

/** How many whole trees this process answered here (tests tell the two paths apart by it). */
export const treeFastPathCount = { answered: 0 }

/** The headers of each encoding's answer, worked out once (the route sets them in this order). */
const headersFor = (encoding: 'br' | 'gzip' | null): string[] =>
  [
    ...Object.entries(API_SECURITY_HEADERS),
    ['content-type', JSON_TYPE],
    ['vary', 'accept-encoding'],
    ...(encoding ? [['content-encoding', encoding]] : []),
  ].flat()
const HEADERS = { br: headersFor('br'), gzip: headersFor('gzip'), none: headersFor(null) }

/**
 * `GET /api/org/tree` (the whole tree) answered before Fastify (authz/held-read.ts) when it is kept
 * (serialized and compressed once per version) and the caller reads all data; a caller cut to a
 * scope, and no kept tree yet, go to the route. No closure per request (see forward-fast-path.ts).
 */
export class TreeFastPath extends HeldRead {
  constructor(
    private readonly whole: VersionedCache,
    private readonly authz: Pick<Authorizer, 'scopeFromMemory'>,
    heldCaller: (headers: IncomingHttpHeaders) => HeldCaller | undefined,
    log: FastifyBaseLogger,
  ) {
    super(heldCaller, log, treeFastPathCount)
  }

  protected keptFor(caller: HeldCaller, h: IncomingHttpHeaders): KeptAnswer | undefined {
    const payload = this.whole.peek<TreePayload>('tree')
    if (payload === undefined) return undefined
    const scope = this.authz.scopeFromMemory(caller.user.id, 'GET', orgApi.tree.route.path)
    if (!scope?.all) return undefined
    const encoding = acceptedEncoding(h['accept-encoding'])
    return [HEADERS[encoding ?? 'none'], encoding ? encoded(payload, encoding) : payload.json]
  }
}
