import { API_PREFIX, orgApi } from '@amg/contract'
import type { Authorizer } from '../../auth/authorizer'
import type { VersionedCache } from '../../cache/versioned-cache'
import { JSON_ANSWER_HEADERS } from '../../lib/security-headers'
import type { KeptFor } from '../authz/held-read'
import { acceptedEncoding, encoded, type TreePayload } from './tree-payload'

/** The whole tree's URL: a query (a part of the tree) goes to Fastify. */
export const TREE_URL = `${API_PREFIX}${orgApi.tree.route.path}`

/** How many whole trees this process answered before Fastify (tests tell the two paths apart by it). */
export const treeFastPathCount = { answered: 0 }

/** The headers of each encoding's answer, worked out once (the route sets them in this order). */
const headersFor = (encoding: 'br' | 'gzip' | null): string[] => [
  ...JSON_ANSWER_HEADERS,
  'vary',
  'accept-encoding',
  ...(encoding ? ['content-encoding', encoding] : []),
]
const HEADERS = { br: headersFor('br'), gzip: headersFor('gzip'), none: headersFor(null) }

/**
 * `GET /api/org/tree` (the whole tree) as it is sent before Fastify (authz/held-read.ts): while it is
 * kept (serialized and compressed once per version), to a caller who reads all data; a caller cut to
 * a scope, and no kept tree yet, go to the route.
 */
export const keptTree =
  (whole: VersionedCache, authz: Pick<Authorizer, 'scopeFromMemory'>): KeptFor =>
  (caller, headers) => {
    const payload = whole.peek<TreePayload>('tree')
    if (payload === undefined) return undefined
    const scope = authz.scopeFromMemory(caller.user.id, 'GET', orgApi.tree.route.path)
    if (!scope?.all) return undefined
    const encoding = acceptedEncoding(headers['accept-encoding'])
    return [HEADERS[encoding ?? 'none'], encoding ? encoded(payload, encoding) : payload.json]
  }
