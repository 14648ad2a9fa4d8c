/**
 * The data scope of a call in process (DESIGN.md §13): 10,000 departments (a ten-way tree), a
 * position in each, 10,000 users each holding one, and 100 roles of every scope (自定义部门 with a few
 * departments, 本部门, 本部门及以下, 仅本人), each user holding two of them. Ours is the real
 * Authorizer on an embedded database holding those rows; the figure is the warm `scopeOf` of an
 * allowed call, after the user's first call has loaded their access.
 */
import { sql } from 'drizzle-orm'
import { Authorizer } from '../../src/auth/authorizer'
import { openDatabase } from '../../src/db/connection'

const DEPTS = 10_000
const USERS = 10_000
const ROLES = 100

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

export async function measureScope() {
  const database = await openDatabase({ memory: true })
  try {
    const db = database.db
    // department d (1-based) sits under d / 10: a tree four levels deep under the seeded root's id space
    await db.execute(sql`
      insert into organizations (id, organization_name, parent) overriding system value
      select 1000000 + d, '部门' || d, case when d <= 10 then null else 1000000 + d / 10 end
      from generate_series(1, ${DEPTS}) d`)
    await db.execute(
      sql`insert into stations (id, station_name) overriding system value values (900000, 'bench职位')`,
    )
    await db.execute(sql`
      insert into positions (id, org_id, station_id) overriding system value
      select 2000000 + d, 1000000 + d, 900000 from generate_series(1, ${DEPTS}) d`)
    await db.execute(sql`
      insert into auths (code, ch_name, en_name, type, url_pattern_infos)
      select 'n' || j, '节点' || j, 'node' || j, 2, jsonb_build_array(jsonb_build_object('method', 'GET', 'uri', '/svc' || j || '/**'))
      from generate_series(0, ${ROLES - 1}) j`)
    // scopes 2, 3, 4, 5 in turn; each role allows its own node's calls
    await db.execute(sql`
      insert into roles (id, role_name, type, status, data_scope) overriding system value
      select 100000 + i, 'bench_role_' || i, 3, 1, 2 + i % 4 from generate_series(0, ${ROLES - 1}) i`)
    await db.execute(sql`
      insert into role_auths (role_id, auth_code) select 100000 + i, 'n' || i from generate_series(0, ${ROLES - 1}) i`)
    await db.execute(sql`
      insert into role_scope_orgs (role_id, org_id)
      select 100000 + i, 1000000 + 1 + (i * 37 + k * 101) % ${DEPTS}
      from generate_series(0, ${ROLES - 1}) i, generate_series(0, 2) k where i % 4 = 0
      on conflict do nothing`)
    await db.execute(sql`
      insert into users (id, nick_name, password_hash) overriding system value
      select 3000000 + u, 'bench_user_' || u, 'x' from generate_series(0, ${USERS - 1}) u`)
    await db.execute(sql`
      insert into position_users (position_id, user_id)
      select 2000000 + 1 + (u * 7) % ${DEPTS}, 3000000 + u from generate_series(0, ${USERS - 1}) u`)
    await db.execute(sql`
      insert into user_roles (user_id, role_id)
      select 3000000 + u, 100000 + (u + k * 13) % ${ROLES} from generate_series(0, ${USERS - 1}) u, generate_series(0, 1) k
      on conflict do nothing`)

    const authz = new Authorizer(db, database)
    const ask = (i: number) => {
      const user = (i * 7919) % USERS
      const role = (user + ((i >> 1) % 2) * 13) % ROLES
      return { userId: 3_000_000 + user, path: `/svc${role}/items/${i % 97}` }
    }
    const sample = 2_000
    const cold: number[] = []
    for (let i = 0; i < sample; i++) {
      const q = ask(i)
      const started = performance.now()
      const scope = await authz.scopeOf(q.userId, 'GET', q.path)
      cold.push(performance.now() - started)
      if (!scope) throw new Error(`no scope for ${JSON.stringify(q)}`)
    }
    const calls = 500_000
    const started = performance.now()
    for (let i = 0; i < calls; i++) {
      const q = ask(i % sample)
      await authz.scopeOf(q.userId, 'GET', q.path)
    }
    const warmUs = ((performance.now() - started) * 1000) / calls
    // the decision alone on the same calls, for comparison: what the scope adds to it
    const decisionStarted = performance.now()
    for (let i = 0; i < calls; i++) {
      const q = ask(i % sample)
      await authz.can(q.userId, 'GET', q.path)
    }
    const decisionUs = ((performance.now() - decisionStarted) * 1000) / calls
    return {
      decisionUs: Math.round(decisionUs * 100) / 100,
      departments: DEPTS,
      warmUs: Math.round(warmUs * 100) / 100,
      coldMs: Math.round(median(cold) * 100) / 100,
    }
  } finally {
    await database.close()
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await measureScope())
