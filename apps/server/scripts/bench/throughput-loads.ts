/**
 * The loads the throughput figures fire at the access server (throughput.ts): its hot paths, the
 * forward-auth decision for a service of its own, and the machine clients' calls.
 */
import { DATA_SCOPE } from '@amg/contract'
import { apiCall } from './api-call'
import type { Load } from './throughput'

/** The key of the service the forward-auth load asks about (DESIGN.md §10a). */
export const BENCH_SERVICE = 'bench-orders'

/**
 * A service other than this server, with one node (`GET /api/orders/**`) under its root held by a
 * user of its own: the forward-auth load then asks `/api/authz/forward/<key>` as that user, so the
 * decision looks the service up and matches its patterns (a super admin would pass at once).
 */
export async function prepareForwardUsers(
  base: string,
  adminToken: string,
): Promise<{ token: string; scopedToken: string }> {
  const call = <T>(method: string, path: string, body: unknown, token = adminToken) =>
    apiCall<T>(base, token, method, path, body)
  await call('POST', '/api/service/insert', { key: BENCH_SERVICE, name: '压测订单服务' })
  const services = await call<{ list: { key: string; rootCode: string }[] }>('POST', '/api/service/list', {
    keyword: BENCH_SERVICE,
  })
  const root = services.list.find((s) => s.key === BENCH_SERVICE)!.rootCode
  const node = await call<string>('POST', '/api/auth/insert', {
    parentCode: root,
    chName: '查看订单',
    enName: 'benchOrdersView',
    type: 3,
    status: 1,
    seq: 1,
    frontEndAccessList: '',
    urlPatternInfos: [{ method: 'GET', uri: '/api/orders/**' }],
  })
  const roleId = await call<number>('POST', '/api/role/insert', {
    roleName: '压测订单角色',
    authCodes: [root, node],
    description: '',
  })
  // the same node through a role with a data scope (自定义: the first department and those below it),
  // so the answer carries X-Auth-Data-Scope (DESIGN.md §13)
  const [top] = await call<{ id: number }[]>('GET', '/api/org/tree', undefined)
  const scopedRoleId = await call<number>('POST', '/api/role/insert', {
    roleName: '压测订单角色（数据范围）',
    authCodes: [root, node],
    description: '',
    dataScope: DATA_SCOPE.custom,
    scopeOrgIds: [top.id],
  })
  const password = 'Bench@Orders123'
  const signIn = async (nickName: string, role: number) => {
    const userId = await call<number>('POST', '/api/user/insert', { nickName, password })
    await call('PUT', '/api/rel/user-rel-role', { id: userId, roleIds: String(role) })
    const login = await fetch(`${base}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ nickName, password }),
    })
    const { token, restricted } = ((await login.json()) as { data: { token: string; restricted?: string } })
      .data
    // a password the administrator set is changed at the first sign-in (DESIGN.md §14), as a person would
    if (restricted === 'password_change')
      await fetch(`${base}/api/user/password`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', 'x-auth-token': token },
        body: JSON.stringify({ oldPassword: password, newPassword: `${password}!` }),
      }).then(async (res) => {
        if (res.status !== 200) throw new Error(`password change for ${nickName}: ${await res.text()}`)
      })
    return token
  }
  const token = await signIn('bench_orders', roleId)
  const scopedToken = await signIn('bench_orders_scoped', scopedRoleId)
  // the scoped load is only what it says if the answer carries the scope
  const probe = await fetch(`${base}/api/authz/forward/${BENCH_SERVICE}`, {
    headers: forwardHeaders(scopedToken),
  })
  const scope = probe.headers.get('x-auth-data-scope')
  if (probe.status !== 200 || !scope || scope === 'all')
    throw new Error(`the scoped forward-auth user got ${probe.status}, X-Auth-Data-Scope ${scope}`)
  return { token, scopedToken }
}

const forwardHeaders = (token: string) => ({
  'x-auth-token': token,
  'x-original-method': 'GET',
  'x-original-uri': '/api/orders/1024?page=1',
})

/**
 * DESIGN.md §16: a machine application (client credentials) with its service account; the loads ask
 * the token endpoint for tokens, and call the check API with one.
 */
export async function machineLoads(
  base: string,
  adminToken: string,
  engine: 'pglite' | 'postgres',
): Promise<Load[]> {
  const call = async <T>(method: string, path: string, body: unknown): Promise<T> => {
    const res = await fetch(base + path, {
      method,
      headers: { 'content-type': 'application/json', 'x-auth-token': adminToken },
      body: JSON.stringify(body),
    })
    return ((await res.json()) as { data: T }).data
  }
  const serviceId = await call<number>('POST', '/api/service/insert', {
    key: 'bench-machine',
    name: '压测机器客户端',
  })
  const { clientId, clientSecret } = await call<{ clientId: string; clientSecret: string }>(
    'PUT',
    '/api/service/oidc',
    { serviceId, type: 'machine', redirectUris: [], requireConsent: false },
  )
  const basic = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`
  const form = { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' }
  const checkHeaders: Record<string, string> = { 'content-type': 'application/json' }
  return [
    {
      name: '客户端凭证 POST /oidc/token',
      engine,
      method: 'POST',
      path: '/oidc/token',
      headers: form,
      body: 'grant_type=client_credentials',
    },
    {
      name: '机器令牌 POST /api/authz/check',
      engine,
      method: 'POST',
      path: '/api/authz/check',
      headers: checkHeaders,
      body: JSON.stringify({ method: 'GET', path: '/user/list' }),
      before: async () => {
        const res = await fetch(`${base}/oidc/token`, {
          method: 'POST',
          headers: form,
          body: 'grant_type=client_credentials',
        })
        checkHeaders.authorization = `Bearer ${((await res.json()) as { access_token: string }).access_token}`
      },
    },
  ]
}

/** The signed-in loads of one running server. */
export function serverLoads(
  engine: 'pglite' | 'postgres',
  token: string,
  forward: { token: string; scopedToken: string },
): Load[] {
  const signedIn = { 'x-auth-token': token }
  const json = { ...signedIn, 'content-type': 'application/json' }
  return [
    { name: '未登录 GET /api/config', engine, method: 'GET', path: '/api/config' },
    {
      name: '已登录 GET /api/user/current',
      engine,
      method: 'GET',
      path: '/api/user/current',
      headers: signedIn,
    },
    {
      name: '已登录且鉴权 GET /api/auth/get-all-back-end',
      engine,
      method: 'GET',
      path: '/api/auth/get-all-back-end',
      headers: signedIn,
    },
    {
      name: '已登录且鉴权 POST /api/authz/check',
      engine,
      method: 'POST',
      path: '/api/authz/check',
      headers: json,
      body: JSON.stringify({ method: 'GET', path: '/user/list' }),
    },
    {
      name: `网关鉴权 GET /api/authz/forward/${BENCH_SERVICE}`,
      engine,
      method: 'GET',
      path: `/api/authz/forward/${BENCH_SERVICE}`,
      headers: forwardHeaders(forward.token),
    },
    {
      name: `网关鉴权带数据范围 GET /api/authz/forward/${BENCH_SERVICE}`,
      engine,
      method: 'GET',
      path: `/api/authz/forward/${BENCH_SERVICE}`,
      headers: forwardHeaders(forward.scopedToken),
    },
    {
      name: '角色列表 POST /api/role/listall',
      engine,
      method: 'POST',
      path: '/api/role/listall',
      headers: json,
      body: '{}',
    },
    { name: '部门树 GET /api/org/tree', engine, method: 'GET', path: '/api/org/tree', headers: signedIn },
  ]
}
