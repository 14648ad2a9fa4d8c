/**
 * Requests per second and p99 latency of the server's hot paths against a bare Fastify hello-world
 * on the same Node, measured in one run: each load runs in turn for a few seconds, five rounds
 * interleaved, medians reported. 20 connections, as a gateway would hold.
 */
import autocannon from 'autocannon'
import { DATA_SCOPE } from '@amg/contract'
import { startAccessServer, startProcess, type Running } from './processes'
import { throwawayDatabaseUrl } from '../throwaway-database'

export interface LoadFigure {
  name: string
  engine: 'none' | 'pglite' | 'postgres'
  reqPerSec: number
  p99Ms: number
  /** req/s as a share of the bare hello-world's in the same run */
  ofBare: number
}

export interface Load {
  name: string
  engine: LoadFigure['engine']
  method: 'GET' | 'POST'
  path: string
  headers?: Record<string, string>
  body?: string
  /** run before each firing (a machine token lives five minutes: a fresh one each time) */
  before?: () => Promise<void>
}

export async function fire(base: string, load: Load, seconds: number) {
  await load.before?.()
  const result = await autocannon({
    url: base + load.path,
    method: load.method,
    headers: { 'accept-encoding': 'gzip, br', ...load.headers },
    body: load.body,
    connections: 20,
    duration: seconds,
  })
  if (result.non2xx > 0) throw new Error(`${load.name}: ${result.non2xx} answers were not 2xx`)
  return { reqPerSec: result.requests.average, p99Ms: result.latency.p99 }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

/** A bare Fastify hello-world and the access server measured against it, as `withBareAndServer` hands them over. */
export interface BareAndServer {
  hello: Running
  server: Running & { token: string }
  engine: 'pglite' | 'postgres'
}

/**
 * Runs `use` while a bare Fastify hello-world and the access server run beside it: the server on the
 * embedded database, or with DATABASE_URL on PostgreSQL in a database of its own, dropped after.
 */
export async function withBareAndServer<T>(use: (running: BareAndServer) => Promise<T>): Promise<T> {
  const hello = await startProcess('scripts/bench/hello.ts', {}, '/')
  let fresh: Awaited<ReturnType<typeof throwawayDatabaseUrl>> | undefined
  let server: BareAndServer['server'] | undefined
  try {
    fresh = process.env.DATABASE_URL ? await throwawayDatabaseUrl(process.env.DATABASE_URL) : undefined
    server = await startAccessServer(fresh?.url)
    return await use({ hello, server, engine: fresh ? 'postgres' : 'pglite' })
  } finally {
    await server?.stop()
    await hello.stop()
    await fresh?.drop()
  }
}

/** The yardstick of every figure: a bare Fastify hello-world on the same Node. */
export const BARE_LOAD: Load = { name: '裸 Fastify hello-world', engine: 'none', method: 'GET', path: '/' }

/** req/s as a percentage of the bare hello-world's, to one decimal. */
const shareOfBare = (reqPerSec: number, bareReqPerSec: number) =>
  Math.round((reqPerSec / bareReqPerSec) * 1000) / 10

/**
 * Fires the bare hello-world, then each load in turn (a second's warm-up, then `seconds` measured),
 * and prints one row each: req/s, p99 and the share of the bare figure.
 */
export async function printAgainstBare({ hello, server }: BareAndServer, loads: Load[], seconds: number) {
  const bare = await fire(hello.url, BARE_LOAD, seconds)
  const rows = [{ name: BARE_LOAD.name, ...bare, ofBare: 100 }]
  for (const load of loads) {
    await fire(server.url, load, 1)
    const r = await fire(server.url, load, seconds)
    rows.push({ name: load.name, ...r, ofBare: shareOfBare(r.reqPerSec, bare.reqPerSec) })
  }
  console.table(rows)
}

/** The key of the service the forward-auth load asks about (DESIGN.md §10a). */
const BENCH_SERVICE = 'bench-orders'

/**
 * A service other than this server, with one node (`GET /api/orders/**`) under its root held by a
 * user of its own: the forward-auth load then asks `/api/authz/forward/<key>` as that user, so the
 * decision looks the service up and matches its patterns (a super admin would pass at once).
 */
export async function prepareForwardUsers(
  base: string,
  adminToken: string,
): Promise<{ token: string; scopedToken: string }> {
  const call = async <T>(method: string, path: string, body: unknown, token = adminToken): Promise<T> => {
    const res = await fetch(base + path, {
      method,
      headers: { 'content-type': 'application/json', 'x-auth-token': token },
      body: JSON.stringify(body),
    })
    const answer = (await res.json()) as { code: number; msg: string; data: T }
    if (answer.code !== 200) throw new Error(`${method} ${path}: ${answer.code} ${answer.msg}`)
    return answer.data
  }
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

export async function measureThroughput(options: { seconds?: number; rounds?: number } = {}) {
  const seconds = options.seconds ?? 5
  const rounds = options.rounds ?? 5
  const running: Running[] = []
  let dropDatabase = async () => {}
  try {
    const hello = await startProcess('scripts/bench/hello.ts', {}, '/')
    running.push(hello)
    const targets: { base: string; loads: Load[] }[] = [
      {
        base: hello.url,
        loads: [BARE_LOAD],
      },
    ]
    const pglite = await startAccessServer()
    running.push(pglite)
    targets.push({
      base: pglite.url,
      loads: [
        ...serverLoads('pglite', pglite.token, await prepareForwardUsers(pglite.url, pglite.token)),
        ...(await machineLoads(pglite.url, pglite.token, 'pglite')),
      ],
    })
    const pgUrl = process.env.DATABASE_URL ?? process.env.TEST_DATABASE_URL
    if (pgUrl) {
      const fresh = await throwawayDatabaseUrl(pgUrl)
      dropDatabase = fresh.drop
      const postgres = await startAccessServer(fresh.url)
      running.push(postgres)
      targets.push({
        base: postgres.url,
        loads: [
          ...serverLoads('postgres', postgres.token, await prepareForwardUsers(postgres.url, postgres.token)),
          ...(await machineLoads(postgres.url, postgres.token, 'postgres')),
        ],
      })
    }
    const all = targets.flatMap((t) => t.loads.map((load) => ({ base: t.base, load })))
    // warm every path once (caches, JIT), then the measured rounds
    for (const { base, load } of all) await fire(base, load, 1)
    const samples = new Map<Load, { reqPerSec: number[]; p99Ms: number[] }>()
    for (let round = 0; round < rounds; round++)
      for (const { base, load } of all) {
        const r = await fire(base, load, seconds)
        const s = samples.get(load) ?? { reqPerSec: [], p99Ms: [] }
        s.reqPerSec.push(r.reqPerSec)
        s.p99Ms.push(r.p99Ms)
        samples.set(load, s)
      }
    const figures = all.map(({ load }) => ({
      name: load.name,
      engine: load.engine,
      reqPerSec: Math.round(median(samples.get(load)!.reqPerSec)),
      p99Ms: median(samples.get(load)!.p99Ms),
      ofBare: 0,
    }))
    const bare = figures[0].reqPerSec
    for (const f of figures) f.ofBare = shareOfBare(f.reqPerSec, bare)
    return figures
  } finally {
    for (const r of running.reverse()) await r.stop()
    await dropDatabase()
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await measureThroughput({ seconds: Number(process.env.BENCH_SECONDS ?? 5) })
  console.table(figures)
}
