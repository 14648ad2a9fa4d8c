import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { matchesUrlPattern, routes, type Route } from '@amg/contract'
import { flattenSeedTree } from '../src/seed/base'
import { SEED_AUTH_TREE } from '../src/db/seed-auth-tree'
import { createTestApp, type TestApp } from './helpers/app'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(async () => t.close())

/** Reads sent as POST, as the contract marks them. */
const READ_ONLY = new Set(
  Object.values(routes)
    .flatMap((resource) => Object.values(resource) as Route[])
    .filter((r) => r.readOnly)
    .map((r) => `${String(r.method)} ${r.path}`),
)

const PUBLIC_OR_SESSION = new Set([
  'GET /health',
  'GET /config',
  'POST /login',
  'POST /logout',
  'GET /user/current',
  'PUT /user/password',
  // DESIGN.md §14: the second step of sign-in, and one's own two-step sign-in
  'POST /login/mfa',
  'POST /user/mfa/setup',
  'POST /user/mfa/enable',
  'POST /user/mfa/disable',
  // the live password rules, which every signed-in user's own password forms show (DESIGN.md §14)
  'GET /settings/password-policy',
  // the home page's figures: open to any signed-in user, each figure only if its list is theirs
  'GET /system/overview',
  // DESIGN.md §20: one's own eligibilities, activation, requests and roles
  'POST /eligibility/list',
  'POST /eligibility/activate',
  'POST /access-request/insert',
  'POST /access-request/list',
  'PUT /access-request/cancel',
  'POST /access-request/requestable',
  'GET /access-request/my-roles',
  // forward auth authenticates the end user itself (DESIGN.md §10)
  ...['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].flatMap((m) => [
    `${m} /authz/forward`,
    `${m} /authz/forward/:service`,
  ]),
  // DESIGN.md §21: a reviewer's own inbox
  'POST /review/inbox',
  // DESIGN.md §23: one's own passkeys, and signing in with one
  'POST /user/passkey/register/options',
  'POST /user/passkey/register/verify',
  'POST /user/passkey/list',
  'PUT /user/passkey/update',
  'DELETE /user/passkey/delete',
  'POST /login/passkey/options',
  'POST /login/passkey/verify',
])

describe('the seeded permission tree (DESIGN.md §5)', () => {
  const rows = flattenSeedTree(SEED_AUTH_TREE)

  it('grants every protected route of the server through some node', () => {
    const ungranted = t.app.ctx.catalogue.entries
      .filter((e) => !PUBLIC_OR_SESSION.has(`${e.method} ${e.url}`))
      .filter(
        (e) =>
          !rows.some((r) => (r.urlPatternInfos ?? []).some((p) => matchesUrlPattern(p, e.method, e.url))),
      )
      .map((e) => `${e.method} ${e.url}`)
    expect(ungranted).toEqual([])
  })

  it('names only calls the server has', () => {
    const unknown = rows
      .flatMap((r) => r.urlPatternInfos ?? [])
      .filter((p) => !t.app.ctx.catalogue.entries.some((e) => e.method === p.method && e.url === p.uri))
    expect(unknown).toEqual([])
  })

  it('covers every console page of SPEC.md §2 with its front-end path', () => {
    const pages = [
      '/usermanage',
      '/usermanage/userinfo/userbaseinfo',
      '/usermanage/userinfo/roleformbyuser',
      '/usermanage/userinfo/usergroupformbyuser',
      '/usermanage/userinfo/positionformbyuser',
      '/usermanage/adduser',
      '/authmanage',
      '/authmanage/addform',
      '/authmanage/editform',
      '/rolemanage',
      '/rolemanage/roleinfo',
      '/rolemanage/addrole',
      '/usergroupmanage',
      '/usergroupmanage/addusergroup',
      '/usergroupmanage/usergroupinfo',
      '/orgmanage',
      '/orgmanage/orgaddform',
      '/orgmanage/editform/orgbaseinfo',
      '/orgmanage/editform/orgrelstation',
      '/stationmanage',
      '/stationmanage/addstation',
      '/stationmanage/editstation',
      '/stationmanage/viewstation',
      '/positionmanage',
      '/positionmanage/positioninfo/roleform',
      '/positionmanage/positioninfo/userform',
      '/adminrolemanage',
      '/adminrolemanage/adminroleadd',
      '/adminrolemanage/adminroleinfo',
    ]
    const patterns = rows.flatMap((r) => r.frontEndAccess ?? [])
    const uncovered = pages.filter(
      (page) => !patterns.some((p) => p === page || (p.endsWith('/**') && page.startsWith(p.slice(0, -3)))),
    )
    expect(uncovered).toEqual([])
  })

  it('every route is in the OpenAPI document with its summary', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json()
    const missing = t.app.ctx.catalogue.entries
      // a path parameter (`:service`) is `{service}` in OpenAPI
      .filter(
        (e) =>
          doc.paths[`/api${e.url.replace(/:(\w+)/g, '{$1}')}`]?.[e.method.toLowerCase()]?.summary !==
          e.summary,
      )
      .map((e) => `${e.method} ${e.url}`)
    expect(missing).toEqual([])
    expect(t.app.ctx.catalogue.entries.length).toBeGreaterThan(70)
  })

  it('has a button node (type 3) for every write the console makes', () => {
    const writes = t.app.ctx.catalogue.entries.filter(
      (e) =>
        e.method !== 'GET' &&
        !PUBLIC_OR_SESSION.has(`${e.method} ${e.url}`) &&
        // every /authz route is a read sent as POST (DESIGN.md §10), as is every route marked read-only
        !/list|tree|namelist|^\/authz\//.test(e.url) &&
        !READ_ONLY.has(`${e.method} ${e.url}`),
    )
    const buttons = rows.filter((r) => r.type === 3)
    const missing = writes
      .filter(
        (e) =>
          !buttons.some((b) => (b.urlPatternInfos ?? []).some((p) => matchesUrlPattern(p, e.method, e.url))),
      )
      .map((e) => `${e.method} ${e.url}`)
    expect(missing).toEqual([])
  })
})
