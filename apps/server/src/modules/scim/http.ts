import type { FastifyReply, FastifyRequest } from 'fastify'
import { ScimError, scimBad, SCIM_MSG } from './errors'

/** What every /scim/v2 answer shares: its media type, versions and ETags, paging, list answers. */

export const SCIM_PREFIX = '/scim/v2'
export const SCIM_MEDIA = 'application/scim+json; charset=utf-8'
export const LIST_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse'

/** A resource's version: its last change to the millisecond, as a weak ETag (RFC 7644 §3.14). */
export const versionOf = (updated: Date) => `W/"${updated.getTime()}"`

export interface Meta {
  resourceType: 'User' | 'Group'
  created: string
  lastModified: string
  location: string
  version: string
}

export const metaOf = (
  resourceType: Meta['resourceType'],
  base: string,
  id: number,
  created: Date,
  updated: Date,
): Meta => ({
  resourceType,
  created: created.toISOString(),
  lastModified: updated.toISOString(),
  location: `${base}${SCIM_PREFIX}/${resourceType}s/${id}`,
  version: versionOf(updated),
})

/**
 * If-Match (RFC 7644 §3.14): the write goes ahead only on the version the client read; 412 when the
 * resource changed since. `*` matches any version; no header, no condition.
 */
export function requireVersion(req: FastifyRequest, current: string) {
  const header = req.headers['if-match']
  if (header === undefined || header.trim() === '*') return
  const given = header.split(',').map((v) => v.trim())
  // a strong form of the same version is the same version
  if (!given.some((v) => v === current || `W/${v}` === current))
    throw new ScimError(412, undefined, SCIM_MSG.stale)
}

/**
 * Answers a resource with its ETag (and Location when made). Handlers return what they answer rather
 * than sending it: a write's answer must leave only after its transaction and log row committed.
 */
export function answer<T extends { meta: Meta }>(reply: FastifyReply, status: number, resource: T): T {
  reply.status(status).type(SCIM_MEDIA).header('etag', resource.meta.version)
  if (status === 201) reply.header('location', resource.meta.location)
  return resource
}

export interface Paging {
  startIndex: number
  count: number
}

const MAX_COUNT = 500

/** startIndex from 1 (less means 1), count from 0 (0 answers only totalResults), at most MAX_COUNT. */
export function pagingOf(query: Record<string, unknown>): Paging {
  const int = (name: string, fallback: number) => {
    const raw = query[name]
    if (raw === undefined || raw === '') return fallback
    const n = Number(raw)
    if (!Number.isFinite(n)) throw scimBad('invalidValue', `${name} 必须是整数`)
    return Math.trunc(n)
  }
  return {
    startIndex: Math.max(1, int('startIndex', 1)),
    count: Math.min(MAX_COUNT, Math.max(0, int('count', 100))),
  }
}

export const listResponse = (resources: unknown[], total: number, paging: Paging) => ({
  schemas: [LIST_SCHEMA],
  totalResults: total,
  startIndex: paging.startIndex,
  itemsPerPage: resources.length,
  Resources: resources,
})

/** The numeric id of a path, or null: an id SCIM never gave is simply not found. */
export function idOf(raw: string): number | null {
  return /^\d{1,9}$/.test(raw) ? Number(raw) : null
}

/** A body must be a JSON object holding the resource's schema; any other schema is refused. */
export function requireSchemas(
  body: unknown,
  main: string,
  allowed: readonly string[],
): Record<string, unknown> {
  if (!body || typeof body !== 'object' || Array.isArray(body))
    throw scimBad('invalidSyntax', SCIM_MSG.badBody)
  const schemas = (body as { schemas?: unknown }).schemas
  if (!Array.isArray(schemas) || !schemas.some((s) => typeof s === 'string' && s === main))
    throw scimBad('invalidSyntax', `${SCIM_MSG.badSchemas}：${main}`)
  const unknown = schemas.find((s) => typeof s !== 'string' || !allowed.includes(s))
  if (unknown !== undefined) throw scimBad('invalidValue', `${SCIM_MSG.unknownSchema}：${String(unknown)}`)
  return body as Record<string, unknown>
}

/** `excludedAttributes=members` (Entra asks it for groups): the attributes to leave out, lower case. */
export const excludedOf = (query: Record<string, unknown>) =>
  new Set(
    String(query.excludedAttributes ?? '')
      .split(',')
      .map((a) => a.trim().toLowerCase())
      .filter(Boolean),
  )
