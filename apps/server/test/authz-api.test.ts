import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { batchTooLarge, MAX_BATCH_CHECKS } from '@amg/contract'
import { createTestApp, type TestApp } from './helpers/app'
import { seedAuthzWorld, type AuthzWorld } from './helpers/authz-world'

/** DESIGN.md §10: check, explain, effective, who-can, role-impact and forward auth. */
let t: TestApp
let w: AuthzWorld
let checker: { id: number; token: string }
let analyst: { id: number; token: string }

beforeAll(async () => {
  t = await createTestApp()
  w = await seedAuthzWorld(t)
  checker = await t.userWithCodes(['authz', 'authz:check'], 'az_checker')
  analyst = await t.userWithCodes(['authz'], 'az_analyst')
})
afterAll(async () => t.close())

const admin = (method: string, url: string, body?: unknown) =>
  t.call(method, url, { token: t.adminToken, body })

describe('POST /api/authz/check and check-batch', () => {
  it('checks the caller without userId', async () => {
    const yes = await t.call('POST', '/api/authz/check', {
      token: analyst.token,
      body: { method: 'post', path: '/user/list' },
    })
    expect(yes.status).toBe(200)
    expect(yes.body.data).toEqual({ allowed: true, userId: analyst.id })
    const no = await t.call('POST', '/api/authz/check', {
      token: analyst.token,
      body: { method: 'DELETE', path: '/user/delete?userId=1' },
    })
    expect(no.body.data).toEqual({ allowed: false, userId: analyst.id })
  })

  it('a plain signed-in user checks themselves with a session alone (DESIGN.md §10a)', async () => {
    const plain = await t.userWithCodes([], 'az_plain')
    const check = await t.call('POST', '/api/authz/check', {
      token: plain.token,
      body: { method: 'POST', path: '/user/list' },
    })
    expect([check.status, check.body.data]).toEqual([200, { allowed: false, userId: plain.id }])
    const own = await t.call('POST', '/api/authz/check', {
      token: w.direct.token,
      body: { method: 'POST', path: '/user/list', userId: w.direct.id },
    })
    expect([own.status, own.body.data]).toEqual([200, { allowed: true, userId: w.direct.id }])
    const batch = await t.call('POST', '/api/authz/check-batch', {
      token: w.direct.token,
      body: {
        checks: [
          { method: 'POST', path: '/user/list' },
          { method: 'DELETE', path: '/user/delete' },
        ],
      },
    })
    expect([batch.status, batch.body.data]).toEqual([200, { results: [true, false] }])
    // still a session: without one, 401
    expect((await t.call('POST', '/api/authz/check', { body: { method: 'GET', path: '/x' } })).status).toBe(
      401,
    )
  })

  it('checks another user only with authz:check; the 权限分析 page node alone does not grant it', async () => {
    const body = { method: 'GET', path: '/user/detail', userId: w.direct.id }
    const plain = await t.userWithCodes([], 'az_plain_other')
    for (const token of [plain.token, analyst.token]) {
      const refused = await t.call('POST', '/api/authz/check', { token, body })
      expect([refused.status, refused.body.msg]).toEqual([403, '没有权限执行此操作'])
      const batch = await t.call('POST', '/api/authz/check-batch', {
        token,
        body: { userId: w.direct.id, checks: [{ method: 'GET', path: '/user/detail' }] },
      })
      expect(batch.status).toBe(403)
    }
    const checkOnly = await t.userWithCodes(['authz:check'], 'az_check_only')
    const byNodeAlone = await t.call('POST', '/api/authz/check', { token: checkOnly.token, body })
    expect([byNodeAlone.status, byNodeAlone.body.data]).toEqual([200, { allowed: true, userId: w.direct.id }])
    const allowed = await t.call('POST', '/api/authz/check', { token: checker.token, body })
    expect(allowed.body.data).toEqual({ allowed: true, userId: w.direct.id })
    const viaGroup = await t.call('POST', '/api/authz/check', {
      token: checker.token,
      body: { method: 'POST', path: '/role/listall', userId: w.groupUser.id },
    })
    expect(viaGroup.body.data.allowed).toBe(true)
  })

  it('answers false for a frozen user and 404 for an unknown one', async () => {
    const frozen = await admin('POST', '/api/authz/check', {
      method: 'POST',
      path: '/role/listall',
      userId: w.frozenId,
    })
    expect(frozen.body.data.allowed).toBe(false)
    const unknown = await admin('POST', '/api/authz/check', { method: 'GET', path: '/x', userId: 999999 })
    expect(unknown.status).toBe(404)
    expect(unknown.body.msg).toBe('用户不存在')
  })

  it('refuses bad input with 400 and a Chinese message', async () => {
    const res = await admin('POST', '/api/authz/check', { method: 'GET', path: 'user/list' })
    expect(res.status).toBe(400)
    expect(res.body.msg).toBe('路径必须以 / 开头')
  })

  it('answers a batch in order', async () => {
    const res = await t.call('POST', '/api/authz/check-batch', {
      token: checker.token,
      body: {
        userId: w.direct.id,
        checks: [
          { method: 'POST', path: '/user/list' },
          { method: 'POST', path: '/role/listall' },
          { method: 'GET', path: '/user/detail' },
          { method: 'HEAD', path: '/user/detail' },
        ],
      },
    })
    expect(res.status).toBe(200)
    expect(res.body.data.results).toEqual([true, false, true, true])
  })

  it(`takes at most ${MAX_BATCH_CHECKS} checks`, async () => {
    const checks = (n: number) => Array.from({ length: n }, () => ({ method: 'GET', path: '/user/detail' }))
    const full = await admin('POST', '/api/authz/check-batch', { checks: checks(MAX_BATCH_CHECKS) })
    expect(full.status).toBe(200)
    expect(full.body.data.results).toHaveLength(MAX_BATCH_CHECKS)
    const over = await admin('POST', '/api/authz/check-batch', { checks: checks(MAX_BATCH_CHECKS + 1) })
    expect(over.status).toBe(400)
    expect(over.body.msg).toBe(batchTooLarge)
    const wrong = await admin('POST', '/api/authz/check-batch', { checks: 'GET /user/list' })
    expect(wrong.status).toBe(400)
  })
})

describe('the 权限分析 page node and authz:check (DESIGN.md §10a)', () => {
  it('hold different patterns: the page node has no check call, authz:check only those', async () => {
    const detail = async (authCode: string) =>
      (
        (await admin('GET', `/api/auth/detail?authCode=${encodeURIComponent(authCode)}`)).body.data
          .urlPatternInfos as { method: string; uri: string }[]
      ).map((p) => `${p.method} ${p.uri}`)
    const page = await detail('authz')
    const check = await detail('authz:check')
    expect(check.sort()).toEqual(['POST /authz/check', 'POST /authz/check-batch'])
    expect(page.filter((p) => check.includes(p))).toEqual([])
  })
})

describe('POST /api/authz/explain', () => {
  const explain = (userId: number, method: string, path: string) =>
    admin('POST', '/api/authz/explain', { userId, method, path })

  it('shows a direct chain', async () => {
    const res = await explain(w.direct.id, 'POST', '/user/list')
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({ allowed: true, superAdmin: false })
    expect(res.body.data.grants).toEqual([
      {
        via: { kind: 'direct', id: w.direct.roleId, name: 'r_az_direct' },
        role: { id: w.direct.roleId, roleName: 'r_az_direct', type: 3 },
        node: { code: 'user', chName: '用户管理' },
        pattern: { method: 'POST', uri: '/user/list' },
      },
    ])
  })

  it('shows a chain through a group', async () => {
    const res = await explain(w.groupUser.id, 'GET', '/role/detail')
    expect(res.body.data.allowed).toBe(true)
    expect(res.body.data.grants).toEqual([
      {
        via: { kind: 'group', id: w.groupId, name: 'az_group' },
        role: { id: w.groupRole, roleName: 'az_group_role', type: 3 },
        node: { code: 'role', chName: '角色管理' },
        pattern: { method: 'GET', uri: '/role/detail' },
      },
    ])
  })

  it('shows a chain through a position', async () => {
    const res = await explain(w.positionUser.id, 'GET', '/org/tree')
    expect(res.body.data.allowed).toBe(true)
    const [grant] = res.body.data.grants
    expect(grant.via).toMatchObject({ kind: 'position', id: w.positionId })
    expect(grant.via.name).toMatch(/-az部-az岗$/)
    expect(grant.node.code).toBe('org')
  })

  it('gives the super-admin role a pseudo pattern, and nothing when denied', async () => {
    const sup = await explain(w.adminId, 'DELETE', '/any/thing')
    expect(sup.body.data).toMatchObject({
      allowed: true,
      superAdmin: true,
      scope: { all: true, self: false, orgIds: [] },
      roleScopes: [],
    })
    expect(sup.body.data.grants[0]).toMatchObject({ node: null, pattern: { method: '*', uri: '/**' } })
    const denied = await explain(w.direct.id, 'DELETE', '/user/delete')
    expect(denied.body.data).toEqual({
      allowed: false,
      superAdmin: false,
      grants: [],
      scope: null,
      scopeText: null,
      roleScopes: [],
    })
  })
})

describe('GET /api/authz/effective', () => {
  it('lists roles with where they come from, and the nodes with their roles', async () => {
    const res = await t.call('GET', '/api/authz/effective', {
      token: analyst.token,
      query: { userId: w.groupUser.id },
    })
    expect(res.status).toBe(200)
    expect(res.body.data.superAdmin).toBe(false)
    expect(res.body.data.roles).toEqual([
      {
        id: w.groupRole,
        roleName: 'az_group_role',
        type: 3,
        via: [{ kind: 'group', id: w.groupId, name: 'az_group' }],
      },
    ])
    expect(res.body.data.nodes).toEqual([{ code: 'role', chName: '角色管理', roleIds: [w.groupRole] }])
    const sup = await admin('GET', `/api/authz/effective?userId=${w.adminId}`)
    expect(sup.body.data.superAdmin).toBe(true)
    expect(sup.body.data.roles[0].via[0].kind).toBe('direct')
  })
})

describe('POST /api/authz/who-can', () => {
  it('pages the active holders with how they hold it', async () => {
    const body = { method: 'GET', path: '/role/detail', pageNum: 1, pageSize: 1 }
    const first = await t.call('POST', '/api/authz/who-can', { token: analyst.token, body })
    expect(first.status).toBe(200)
    // the admin (super admin) and the group user; the frozen user holding the role never counts
    expect(first.body.data.total).toBe(2)
    expect(first.body.data.list).toEqual([
      {
        userId: w.adminId,
        nickName: 'admin',
        superAdmin: true,
        via: [expect.objectContaining({ kind: 'direct', id: w.superRoleId })],
      },
    ])
    const second = await t.call('POST', '/api/authz/who-can', {
      token: analyst.token,
      body: { ...body, pageNum: 2 },
    })
    expect(second.body.data.list).toEqual([
      {
        userId: w.groupUser.id,
        nickName: 'az_group_user',
        superAdmin: false,
        via: [{ kind: 'group', id: w.groupId, name: 'az_group' }],
      },
    ])
    const beyond = await t.call('POST', '/api/authz/who-can', {
      token: analyst.token,
      body: { ...body, pageNum: 3 },
    })
    expect(beyond.body.data).toEqual({ list: [], total: 2 })
  })
})

describe('POST /api/authz/role-impact', () => {
  const impact = (roleId: number, authCodes: string[]) =>
    admin('POST', '/api/authz/role-impact', { roleId, authCodes })

  it('counts the active holders and shows nothing gained or lost for the same codes', async () => {
    const res = await impact(w.groupRole, ['role'])
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual({ users: 1, gained: [], lost: [], dormant: [] })
  })

  it('shows what a change gains and loses', async () => {
    const res = await impact(w.groupRole, ['org', 'no-such-code'])
    expect(res.body.data).toEqual({
      users: 1,
      gained: [{ code: 'org', chName: '部门管理' }],
      lost: [{ code: 'role', chName: '角色管理' }],
      dormant: [],
    })
    expect((await impact(w.positionRole, [])).body.data.users).toBe(1)
  })

  it('answers 404 for an unknown role, and is granted to role editors', async () => {
    expect((await impact(999999, [])).status).toBe(404)
    const editor = await t.userWithCodes(['role', 'role:edit'])
    const res = await t.call('POST', '/api/authz/role-impact', {
      token: editor.token,
      body: { roleId: w.groupRole, authCodes: ['role'] },
    })
    expect(res.status).toBe(200)
  })
})

describe('/api/authz/forward', () => {
  const nginx = (method: string, uri: string) => ({ 'x-original-method': method, 'x-original-uri': uri })
  const traefik = (method: string, uri: string) => ({
    'x-forwarded-method': method,
    'x-forwarded-uri': uri,
  })
  const forward = (headers: Record<string, string>, method = 'GET') =>
    t.call(method, '/api/authz/forward', { headers })
  const fwdHeaders = async (headers: Record<string, string>) =>
    t.app.inject({ method: 'GET', url: '/api/authz/forward', headers })

  it('reads the token from x-auth-token, a Bearer header or the Authorization cookie', async () => {
    const tok = w.direct.token
    const sources: Record<string, string>[] = [
      { 'x-auth-token': tok },
      { authorization: `Bearer ${tok}` },
      { cookie: `theme=dark; Authorization=${encodeURIComponent(tok)}; x=1` },
    ]
    for (const auth of sources) {
      const res = await fwdHeaders({ ...auth, ...nginx('POST', '/user/list') })
      expect(res.statusCode, JSON.stringify(auth)).toBe(200)
      expect(res.headers['x-auth-user-id']).toBe(String(w.direct.id))
      expect(res.headers['x-auth-user-name']).toBe('az_direct')
    }
  })

  it('reads the call from the nginx or the Traefik/Caddy headers, ignoring the query string', async () => {
    const tok = { 'x-auth-token': w.direct.token }
    expect((await forward({ ...tok, ...nginx('GET', '/user/detail?userId=3') })).status).toBe(200)
    expect((await forward({ ...tok, ...traefik('GET', '/user/detail?userId=3') })).status).toBe(200)
    // any method of the gateway's subrequest
    expect((await forward({ ...tok, ...traefik('POST', '/user/list') }, 'POST')).status).toBe(200)
    expect((await forward({ ...tok, ...traefik('HEAD', '/user/detail') }, 'HEAD')).status).toBe(200)
  })

  it('answers 401 without a valid session', async () => {
    const none = await forward(nginx('POST', '/user/list'))
    expect(none.status).toBe(401)
    expect(none.body.code).toBe(401)
    const bad = await forward({ 'x-auth-token': 'nope', ...nginx('POST', '/user/list') })
    expect(bad.status).toBe(401)
  })

  it('answers 403 when no pattern matches; /api/ is not stripped; super admin passes', async () => {
    const tok = { 'x-auth-token': w.direct.token }
    expect((await forward({ ...tok, ...nginx('POST', '/role/listall') })).status).toBe(403)
    expect((await forward({ ...tok, ...nginx('DELETE', '/user/list') })).status).toBe(403)
    expect((await forward({ ...tok, ...nginx('POST', '/api/user/list') })).status).toBe(403)
    const sup = await forward({ 'x-auth-token': t.adminToken, ...nginx('PATCH', '/orders/7') })
    expect(sup.status).toBe(200)
  })

  it('answers 400 when the call headers are missing or malformed', async () => {
    const tok = { 'x-auth-token': w.direct.token }
    const missing = await forward(tok)
    expect(missing.status).toBe(400)
    expect(missing.body.msg).toMatch(/缺少原始请求/)
    expect((await forward({ ...tok, 'x-original-method': 'GET' })).status).toBe(400)
    expect((await forward({ ...tok, ...nginx('GET', 'user/list') })).status).toBe(400)
    expect((await forward({ ...tok, ...nginx('G ET', '/user/list') })).status).toBe(400)
    expect((await forward({ ...tok, ...nginx('GET', '/user/../role/listall') })).status).toBe(400)
    expect((await forward({ ...tok, ...nginx('GET', '/user/%2E%2E/role') })).status).toBe(400)
  })

  it('refuses two header pairs naming different calls, whichever pair the client forged', async () => {
    const tok = { 'x-auth-token': w.direct.token }
    // through Caddy or Traefik the client could add nginx's pair, and the other way round
    const forged = await forward({
      ...tok,
      ...traefik('DELETE', '/user/delete'),
      ...nginx('GET', '/user/detail'),
    })
    expect(forged.status).toBe(403)
    expect(forged.body.msg).toMatch(/前后不一致/)
    const other = await forward({
      ...tok,
      ...nginx('DELETE', '/user/delete'),
      ...traefik('GET', '/user/detail'),
    })
    expect(other.status).toBe(403)
    // both pairs naming the same call are fine
    const same = await forward({ ...tok, ...nginx('GET', '/user/detail'), ...traefik('GET', '/user/detail') })
    expect(same.status).toBe(200)
  })

  it('shows a grant on the very next call, and a revoked session at once', async () => {
    const tok = { 'x-auth-token': w.direct.token }
    const call = nginx('GET', '/role/detail')
    expect((await forward({ ...tok, ...call })).status).toBe(403)
    const link = await admin('PUT', '/api/rel/user-rel-role', {
      id: w.direct.id,
      roleIds: String(w.groupRole),
    })
    expect(link.status).toBe(200)
    expect((await forward({ ...tok, ...call })).status).toBe(200)

    const sessions = await admin('POST', '/api/session/online/list', { nickName: 'az_direct' })
    for (const s of sessions.body.data.list as { id: number }[])
      expect((await admin('DELETE', `/api/session/online/revoke?id=${s.id}`)).status).toBe(200)
    expect((await forward({ ...tok, ...call })).status).toBe(401)
  })
})
