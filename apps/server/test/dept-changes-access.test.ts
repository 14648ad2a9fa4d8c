import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from './helpers/app'
import { seedScopedCompany, type ScopedCompany } from './helpers/scoped-company'

/**
 * A department change costs the same at ten departments and at ten thousand (DESIGN.md §18): it no
 * longer drops every user's access and the permission tree, only the department tree and the accesses
 * whose scopes were worked out on it. What a scoped administrator reaches still follows every change
 * at once: a department added below their root is theirs on the next call, one moved away is not.
 */
let t: TestApp
let c: ScopedCompany
beforeAll(async () => {
  t = await createTestApp()
  c = await seedScopedCompany(t)
})
afterAll(async () => t.close())

const admin = (method: string, url: string, body?: object, query?: Record<string, string | number>) =>
  t.call(method, url, { token: t.adminToken, body, query })
const scopeOfScoped = () => t.app.ctx.authz.scopeOf(c.scoped.id, 'POST', '/user/list')

describe('a department change', () => {
  it('keeps the access of a super admin and drops that of a scoped administrator', async () => {
    // a write first, so that the change watch has seen the counters the seeding moved
    const warm = await admin('POST', '/api/org/insert', {
      organizationName: `预热${Date.now()}`,
      parent: c.orgB,
    })
    expect(warm.status, warm.body.msg).toBe(200)
    // both warm: the admin's access needs no department tree, the scoped one's is worked out on it
    expect((await admin('GET', '/api/user/current')).status).toBe(200)
    expect((await t.call('GET', '/api/user/current', { token: c.scoped.token })).status).toBe(200)
    expect(t.app.ctx.authz.isCached(c.adminId)).toBe(true)
    expect(t.app.ctx.authz.isCached(c.scoped.id)).toBe(true)
    const added = await admin('POST', '/api/org/insert', {
      organizationName: `新部门甲${Date.now()}`,
      parent: c.orgB,
    })
    expect(added.status, added.body.msg).toBe(200)
    expect(t.app.ctx.authz.isCached(c.adminId)).toBe(true)
    expect(t.app.ctx.authz.isCached(c.scoped.id)).toBe(false)
  })

  it('gives a scoped administrator a department added below their root at once, and takes one moved away', async () => {
    const before = await scopeOfScoped()
    expect(before?.orgIds.sort()).toEqual([c.orgA, c.orgA1, c.orgA2].sort())
    const added = await admin('POST', '/api/org/insert', { organizationName: '新部门乙', parent: c.orgA1 })
    expect(added.status, added.body.msg).toBe(200)
    const newId = added.body.data as number
    expect((await scopeOfScoped())?.orgIds).toContain(newId)
    // the scoped administrator sees it in their own answers too
    const detail = await t.call('GET', '/api/org/detail', { token: c.scoped.token, query: { orgId: newId } })
    expect(detail.status, detail.body.msg).toBe(200)
    // moved under B, out of their reach
    const moved = await admin('PUT', '/api/org/update', {
      id: newId,
      organizationName: '新部门乙',
      parent: c.orgB,
    })
    expect(moved.status, moved.body.msg).toBe(200)
    expect((await scopeOfScoped())?.orgIds).not.toContain(newId)
    const refused = await t.call('GET', '/api/org/detail', { token: c.scoped.token, query: { orgId: newId } })
    expect(refused.status).toBe(403)
  })

  it('a department removed leaves the scope too', async () => {
    const added = await admin('POST', '/api/org/insert', { organizationName: '新部门丙', parent: c.orgA2 })
    const newId = added.body.data as number
    expect((await scopeOfScoped())?.orgIds).toContain(newId)
    const removed = await admin('DELETE', '/api/org/delete', undefined, { orgId: newId })
    expect(removed.status, removed.body.msg).toBe(200)
    expect((await scopeOfScoped())?.orgIds).not.toContain(newId)
  })
})
