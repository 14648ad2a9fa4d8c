import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { sql } from 'drizzle-orm'
import { queryRows } from '../src/db/connection'
import { createTestApp, type TestApp } from './helpers/app'

/**
 * DESIGN.md §11, by brute force: every write route of the OpenAPI document gets a few hundred
 * malformed requests (plausible bodies and query strings, each carrying at least one value no
 * request may carry: a control character, a number that is not finite or beyond 32 bits, nesting
 * too deep). Whatever the route, the answer is never 5xx, always the `{code, msg, data}` envelope,
 * and every table is exactly as before. PGlite runs a bounded number per route; PostgreSQL more.
 */
let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(async () => t.close())

interface JsonSchema {
  type?: string | string[]
  properties?: Record<string, JsonSchema>
  items?: JsonSchema
  anyOf?: JsonSchema[]
  enum?: unknown[]
  const?: unknown
}

interface Route {
  method: string
  path: string
  body?: JsonSchema
  query: { name: string; schema: JsonSchema }[]
}

/** Write routes (POST, PUT, PATCH, DELETE) with their body and query schemas, from the served OpenAPI document. */
function writeRoutes(doc: any): Route[] {
  const routes: Route[] = []
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(item)) {
      if (!['post', 'put', 'patch', 'delete'].includes(method)) continue
      routes.push({
        method: method.toUpperCase(),
        path,
        body: op.requestBody?.content?.['application/json']?.schema,
        query: (op.parameters ?? [])
          .filter((p: any) => p.in === 'query')
          .map((p: any) => ({ name: p.name, schema: p.schema ?? {} })),
      })
    }
  }
  return routes
}

/** A value of roughly the right shape for a schema: the part of a request that looks right. */
function plausible(schema: JsonSchema | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 3) return fc.constant(null)
  if (schema.anyOf?.length) return fc.oneof(...schema.anyOf.map((s) => plausible(s, depth + 1)))
  if (schema.enum?.length) return fc.constantFrom(...schema.enum)
  if (schema.const !== undefined) return fc.constant(schema.const)
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type
  switch (type) {
    case 'string':
      return fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('1,2', '/user/**', 'admin', '', ' '))
    case 'integer':
    case 'number':
      return fc.oneof(fc.integer({ min: -3, max: 60 }), fc.constantFrom(2147483647, 0.5))
    case 'boolean':
      return fc.boolean()
    case 'null':
      return fc.constant(null)
    case 'array':
      return fc.array(plausible(schema.items, depth + 1), { maxLength: 3 })
    case 'object': {
      const props = Object.entries(schema.properties ?? {})
      return fc.record(Object.fromEntries(props.map(([k, s]) => [k, plausible(s, depth + 1)])), {
        requiredKeys: [],
      })
    }
    default:
      return fc.anything({ maxDepth: 1 })
  }
}

const NON_FINITE = '__NON_FINITE__'
/** Values no request may carry, whatever the field: each alone must make the request refused. */
const poison = fc.oneof(
  fc.string({ maxLength: 6 }).map((s) => `${s}\u0000${s}`),
  fc.constantFrom('\u0001', 'a\u0007b', '\u001f', 'x\u007f'),
  fc.constant(NON_FINITE),
  fc.constantFrom(2147483648, -2147483649, 9007199254740992, 1e300, -1e300),
  fc.integer({ min: 33, max: 40 }).map((depth) => {
    let v: unknown = 1
    for (let i = 0; i < depth; i++) v = { v }
    return v
  }),
)
/** In a query string: control characters fail any field; overflowing numbers only fail a numeric one. */
const textPoison = fc.constantFrom('%00', 'a%00b', '%01', 'x%7F')
const numberPoison = fc.oneof(textPoison, fc.constantFrom('1e400', '-1e400', '99999999999', '2147483648'))
const isNumeric = (schema: JsonSchema): boolean =>
  ['integer', 'number'].includes(String(schema.type)) || !!schema.anyOf?.some((s) => isNumeric(s) && !s.anyOf)

interface Malformed {
  body: string | undefined
  query: string
}

function malformed(route: Route): fc.Arbitrary<Malformed> {
  const bodyFields = Object.keys(route.body?.properties ?? {})
  const poisonBody = route.body !== undefined || route.query.length === 0
  const base = route.body ? plausible(route.body) : fc.constant({})
  const key = fc.oneof(
    fc.constantFrom(...(bodyFields.length ? bodyFields : ['x'])),
    fc.constantFrom('extra', 'a b'),
  )
  const queryValues = fc.tuple(...route.query.map((q) => plausible(q.schema).map((v) => String(v ?? ''))))
  return fc
    .record({
      base,
      key,
      bad: poison,
      queryValues,
      poisonedParam: fc.nat({ max: Math.max(route.query.length - 1, 0) }),
      textParam: textPoison,
      numberParam: numberPoison,
    })
    .map(({ base, key, bad, queryValues, poisonedParam, textParam, numberParam }) => {
      const target = route.query[poisonedParam]
      const badParam = target && isNumeric(target.schema) ? numberParam : textParam
      const params = route.query.map(
        (q, i) => `${encodeURIComponent(q.name)}=${encodeURIComponent(queryValues[i])}`,
      )
      if (!poisonBody)
        params[poisonedParam] = `${encodeURIComponent(route.query[poisonedParam].name)}=${badParam}`
      const object = typeof base === 'object' && base !== null && !Array.isArray(base) ? { ...base } : {}
      ;(object as Record<string, unknown>)[key] = bad
      return {
        body: poisonBody ? JSON.stringify(object).replace(`"${NON_FINITE}"`, '1e400') : undefined,
        query: params.join('&'),
      }
    })
}

/**
 * A digest of every table of the schema: equal digests, equal contents. The logs are left out: a
 * refused request may rightly leave a row there (a 403 or 409 is a security event); so is a
 * session's last-seen time, which any request may move.
 */
/** Every table but the logs and the usage record (the admin's allowed calls are use: DESIGN.md §21). */
async function tableDigests(): Promise<Record<string, string>> {
  const tables = await queryRows<{ name: string }>(
    t.db,
    sql`select tablename as name from pg_tables where schemaname = 'public'
      and tablename not in ('operation_logs', 'login_logs', 'permission_usage') order by 1`,
  )
  const digests: Record<string, string> = {}
  for (const { name } of tables) {
    const [row] = await queryRows<{ digest: string | null }>(
      t.db,
      sql`select md5(coalesce(string_agg(r, '|' order by r), '')) as digest
        from (select (to_jsonb(x) - 'last_seen_time')::text as r from ${sql.identifier(name)} x) rows`,
    )
    digests[name] = row?.digest ?? ''
  }
  return digests
}

describe('malformed requests to every write route', () => {
  it('never answer 5xx, always answer the envelope, and change no table', async () => {
    const doc = t.app.swagger() as any
    const routes = writeRoutes(doc)
    expect(routes.length).toBeGreaterThan(40)
    const runsPerRoute = t.database.kind === 'postgres' ? 600 : 250
    const before = await tableDigests()
    let requests = 0
    const statuses = new Map<number, number>()
    for (const route of routes) {
      await fc.assert(
        fc.asyncProperty(malformed(route), fc.boolean(), async ({ body, query }, asJson) => {
          const url = `${route.path}${query ? `?${query}` : ''}`
          const res = await t.app.inject({
            method: route.method as 'POST',
            url,
            headers: {
              'x-auth-token': t.adminToken,
              ...(body !== undefined
                ? { 'content-type': asJson ? 'application/json' : 'application/x-www-form-urlencoded' }
                : {}),
            },
            ...(body !== undefined ? { payload: body } : {}),
          })
          requests++
          statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1)
          const where = `${route.method} ${url} ${body ?? ''} → ${res.statusCode} ${res.body.slice(0, 200)}`
          expect(res.statusCode, where).toBeLessThan(500)
          expect(res.statusCode, where).toBeGreaterThanOrEqual(400)
          const envelope = res.json()
          expect(envelope.code, where).toBe(res.statusCode)
          expect(typeof envelope.msg, where).toBe('string')
          expect(envelope.data, where).toBeNull()
        }),
        { numRuns: runsPerRoute },
      )
    }
    expect(await tableDigests()).toEqual(before)
    expect(requests).toBeGreaterThanOrEqual(routes.length * runsPerRoute)
    console.log(
      `fuzz: ${routes.length} write routes, ${requests} requests, statuses`,
      Object.fromEntries(statuses),
    )
  }, 600_000)
})
