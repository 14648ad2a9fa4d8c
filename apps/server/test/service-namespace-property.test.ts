import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { inArray } from 'drizzle-orm'
import { matchesUrlPattern } from '@amg/contract'
import { auths, roleAuths, services } from '../src/db/schema'
import { createTestApp, type TestApp } from './helpers/app'

/**
 * DESIGN.md §10a, "a permission belongs to one service", as a property: whatever nodes a user holds
 * in whichever services, a call on service S is allowed exactly when one of the user's nodes IN S
 * matches it — through the decision in process and through forward auth — and never because of a
 * node of another service, however wide its pattern.
 */
let t: TestApp
let user: { id: number; token: string; roleId: number }
const roots = new Map<string, string | null>()

const SERVICES = ['ams', 'alpha', 'beta'] as const
const METHODS = ['GET', 'POST', '*'] as const
const URIS = ['/**', '/log/**', '/log/operation/export', '/a', '/a/**', '/api/log/**'] as const
const PATHS = ['/log/operation/export', '/log/x', '/a', '/a/b', '/api/log/operation/export', '/b'] as const

beforeAll(async () => {
  t = await createTestApp()
  for (const key of ['alpha', 'beta']) {
    const res = await t.call('POST', '/api/service/insert', { token: t.adminToken, body: { key, name: key } })
    expect(res.status).toBe(200)
  }
  for (const s of await t.db.select().from(services)) roots.set(s.key, s.rootCode)
  user = await t.userWithCodes([], 'ns_property')
})
afterAll(async () => t.close())

const node = fc.record({
  service: fc.constantFrom(...SERVICES),
  method: fc.constantFrom(...METHODS),
  uri: fc.constantFrom(...URIS),
})
const call = fc.record({
  service: fc.constantFrom(...SERVICES),
  method: fc.constantFrom('GET', 'POST'),
  path: fc.constantFrom(...PATHS),
})

describe('one namespace per service (property)', () => {
  it('a call on a service is decided by that service’s nodes alone', async () => {
    let run = 0
    await fc.assert(
      fc.asyncProperty(
        fc.array(node, { maxLength: 5 }),
        fc.array(call, { minLength: 1, maxLength: 6 }),
        async (nodes, calls) => {
          run++
          const codes = nodes.map((_, i) => `NSP${run}_${i}`)
          if (nodes.length) {
            await t.db.insert(auths).values(
              nodes.map((n, i) => ({
                code: codes[i],
                // ams's nodes sit in its menus; another service's under its root
                parentCode: roots.get(n.service) ?? 'monitor',
                level: 2,
                chName: codes[i],
                enName: codes[i],
                type: 3,
                status: 1,
                urlPatternInfos: [{ method: n.method, uri: n.uri }],
              })),
            )
            await t.db.insert(roleAuths).values(codes.map((authCode) => ({ roleId: user.roleId, authCode })))
          }
          await t.app.ctx.authz.invalidate()
          try {
            for (const c of calls) {
              const expected = nodes.some(
                (n) =>
                  n.service === c.service &&
                  matchesUrlPattern({ method: n.method, uri: n.uri }, c.method, c.path),
              )
              expect(await t.app.ctx.authz.can(user.id, c.method, c.path, c.service)).toBe(expected)
              const forward = await t.call('GET', `/api/authz/forward/${c.service}`, {
                headers: {
                  'x-auth-token': user.token,
                  'x-original-method': c.method,
                  'x-original-uri': c.path,
                },
              })
              expect(forward.status).toBe(expected ? 200 : 403)
            }
          } finally {
            if (nodes.length) await t.db.delete(auths).where(inArray(auths.code, codes))
          }
        },
      ),
      { numRuns: 60 },
    )
  })
})
