/**
 * The authorization decision in process, on one policy of 110,000 rules, against node-casbin: 100,000
 * users each holding one of 1,000 roles (casbin's `g` rules) and 10,000 nodes with one URL pattern
 * each, ten per role (casbin's `p` rules). Ours is the real Authorizer on an embedded database holding
 * those rows; casbin gets the same rules through its API with the usual RBAC model.
 */
import { sql } from 'drizzle-orm'
import { newEnforcer, newModelFromString } from 'casbin'
import { Authorizer } from '../../src/auth/authorizer'
import { openDatabase } from '../../src/db/connection'

const USERS = 100_000
const ROLES = 1_000
const NODES = 10_000

const MODEL = `
[request_definition]
r = sub, obj, act
[policy_definition]
p = sub, obj, act
[role_definition]
g = _, _
[policy_effect]
e = some(where (p.eft == allow))
[matchers]
m = g(r.sub, p.sub) && keyMatch(r.obj, p.obj) && r.act == p.act
`

/** The request asked of both: user k on a path of node j, allowed when j's role is k's role. */
const ask = (i: number) => {
  const user = (i * 7919) % USERS
  const node = (i * 104729) % NODES
  return { user, path: `/svc${node}/items/${i % 97}`, allowed: node % ROLES === user % ROLES }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

async function ours() {
  const database = await openDatabase({ memory: true })
  try {
    await database.db.execute(sql`
      insert into auths (code, ch_name, en_name, type, url_pattern_infos)
      select 'n' || j, '节点' || j, 'node' || j, 2, jsonb_build_array(jsonb_build_object('method', 'GET', 'uri', '/svc' || j || '/**'))
      from generate_series(0, ${NODES - 1}) j`)
    await database.db.execute(sql`
      insert into roles (id, role_name, type, status) overriding system value
      select 100000 + i, 'bench_role_' || i, 3, 1 from generate_series(0, ${ROLES - 1}) i`)
    await database.db.execute(sql`
      insert into role_auths (role_id, auth_code) select 100000 + (j % ${ROLES}), 'n' || j from generate_series(0, ${NODES - 1}) j`)
    await database.db.execute(sql`
      insert into users (id, nick_name, password_hash) overriding system value
      select 1000000 + k, 'bench_user_' || k, 'x' from generate_series(0, ${USERS - 1}) k`)
    await database.db.execute(sql`
      insert into user_roles (user_id, role_id) select 1000000 + k, 100000 + (k % ${ROLES}) from generate_series(0, ${USERS - 1}) k`)
    const authz = new Authorizer(database.db, database)
    const cold: number[] = []
    const sample = 2_000
    for (let i = 0; i < sample; i++) {
      const q = ask(i)
      const started = performance.now()
      const answer = await authz.can(1_000_000 + q.user, 'GET', q.path)
      cold.push(performance.now() - started)
      if (answer !== q.allowed) throw new Error(`ours answered ${answer} for ${JSON.stringify(q)}`)
    }
    const calls = Number(process.env.BENCH_DECISION_CALLS ?? 1_000_000)
    const warm = () => {
      const started = performance.now()
      return (async () => {
        for (let i = 0; i < calls; i++) {
          const q = ask(i % sample)
          await authz.can(1_000_000 + q.user, 'GET', q.path)
        }
        return ((performance.now() - started) * 1000) / calls
      })()
    }
    const warmUs = await warm()
    // DESIGN.md §20: every other user's role link expires in a day; each warm answer then also
    // compares the access's earliest expiry with the clock
    await database.db.execute(
      sql`update user_roles set expires_at = now() + interval '1 day' where user_id % 2 = 0`,
    )
    await authz.invalidate()
    for (let i = 0; i < sample; i++) {
      const q = ask(i)
      if ((await authz.can(1_000_000 + q.user, 'GET', q.path)) !== q.allowed)
        throw new Error('expiring links changed an answer')
    }
    const warmExpiringUs = await warm()
    return { warmUs, warmExpiringUs, coldMs: median(cold) }
  } finally {
    await database.close()
  }
}

async function casbin() {
  const enforcer = await newEnforcer(newModelFromString(MODEL))
  const p: string[][] = []
  for (let j = 0; j < NODES; j++) p.push([`role${j % ROLES}`, `/svc${j}/*`, 'GET'])
  const g: string[][] = []
  for (let k = 0; k < USERS; k++) g.push([`user${k}`, `role${k % ROLES}`])
  await enforcer.addPolicies(p)
  await enforcer.addGroupingPolicies(g)
  const took: number[] = []
  for (let i = 0; i < 200; i++) {
    const q = ask(i)
    const started = performance.now()
    const answer = await enforcer.enforce(`user${q.user}`, q.path, 'GET')
    took.push(performance.now() - started)
    if (answer !== q.allowed) throw new Error(`casbin answered ${answer} for ${JSON.stringify(q)}`)
  }
  return { medianMs: median(took) }
}

export async function measureDecision() {
  const o = await ours()
  const c = await casbin()
  return {
    rules: USERS + NODES,
    oursWarmUs: Math.round(o.warmUs * 100) / 100,
    oursWarmExpiringUs: Math.round(o.warmExpiringUs * 100) / 100,
    oursColdMs: Math.round(o.coldMs * 100) / 100,
    casbinMs: Math.round(c.medianMs * 100) / 100,
    timesFaster: Math.round((c.medianMs * 1000) / o.warmUs),
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await measureDecision())
