/**
 * Measures the large lists on a large company (DESIGN.md §8, §12: 100,000 users, 10,000 departments),
 * on the embedded database and, when DATABASE_URL is set, on PostgreSQL in a fresh database dropped
 * after. Each engine is filled the same way (the demo company, the extra departments, 10,000 user
 * groups and two positions per extra department), then every call is timed through the real app: the
 * first run (cold caches) and the median of warm runs.
 *
 *   npm run measure -w apps/server [-- --users 100000 --departments 10000 --groups 10000 --runs 15]
 *   DATABASE_URL=postgres://… npm run measure -w apps/server     (PostgreSQL too)
 *
 * `measureLists()` answers the figures, for a bench runner.
 */
import { pathToFileURL } from 'node:url'
import { isNull, sql } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../src/app'
import { loadConfig } from '../src/config'
import { adminToken } from './bench/admin-session'
import { openDatabase, queryRows, type Database } from '../src/db/connection'
import { seedBase } from '../src/seed/base'
import { seedDemo } from '../src/seed/demo'
import { organizations, positions, stations, userGroups } from '../src/db/schema'
import { numberArg, throwawayDatabaseUrl } from './throwaway-database'

export type Engine = 'pglite' | 'postgres'

export interface MeasureOptions {
  users?: number
  departments?: number
  groups?: number
  /** warm runs per call, after the first */
  runs?: number
  /** PostgreSQL server to measure on (a throw-away database is made there); none: the embedded database only */
  postgresUrl?: string
  log?: (line: string) => void
}

/** Milliseconds per call: its first run (caches cold) and the median of the warm runs after it. */
export interface CallFigure {
  first: number
  median: number
}

/** Per engine measured, per call. */
export type ListFigures = Partial<Record<Engine, Record<string, CallFigure>>>

type Call = { label: string; url: string; body: object }

/** A list call asking for page `pageNum` (10 a page) with the list's filters. */
const listCall = (label: string, url: string, pageNum: number, filters: object = {}): Call => ({
  label,
  url,
  body: { ...filters, pageNum, pageSize: 10 },
})

function calls(users: number, groups: number, positions: number): Call[] {
  const last = (total: number) => Math.max(1, Math.ceil(total / 10))
  const whoCan = { method: 'POST', path: '/user/list' }
  return [
    listCall('user list, first page', '/api/user/list', 1),
    listCall('user list, last page', '/api/user/list', last(users)),
    listCall('user list, middle page', '/api/user/list', last(users / 2)),
    listCall('user filter, 3+ chars', '/api/user/list', 1, { nickName: 'zhang' }),
    listCall('user filter, 2 chars', '/api/user/list', 1, { nickName: '17' }),
    listCall('user filter, 1 char', '/api/user/list', 1, { nickName: 'v' }),
    listCall('group list, first page', '/api/user_groups/list', 1),
    listCall('group list, last page', '/api/user_groups/list', last(groups)),
    listCall('group filter, 3+ chars', '/api/user_groups/list', 1, { groupName: '组999' }),
    listCall('position list, first page', '/api/position/list', 1),
    listCall('position list, last page', '/api/position/list', last(positions)),
    // who may list users: the demo roles that grant it reach most of the 100,000 users
    listCall('who-can, first page', '/api/authz/who-can', 1, whoCan),
    listCall('who-can, page 1000', '/api/authz/who-can', 1000, whoCan),
  ]
}

/** The demo company's administrator of 研发中心 and the departments below it (seed/demo.ts). */
const SCOPED_ADMIN = 'demo_rd_admin'

function scopedCalls(inScope: number): Call[] {
  return [
    listCall('user list, first page (scoped admin)', '/api/user/list', 1),
    listCall('user list, last page (scoped admin)', '/api/user/list', Math.max(1, Math.ceil(inScope / 10))),
    listCall('user filter, 2 chars (scoped admin)', '/api/user/list', 1, { nickName: '17' }),
  ]
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

/** The demo company plus extra departments (100 per parent under the root), groups and positions. */
export async function fillLargeCompany(
  database: Database,
  o: Required<Pick<MeasureOptions, 'users' | 'departments' | 'groups'>>,
) {
  const { db } = database
  const config = loadConfig({}, { logLevel: 'warn', initialAdminPassword: 'Bench@Admin2026' })
  await seedBase(db, config)
  await seedDemo(db, { users: o.users, password: config.initialUserPassword })
  const [root] = await db.select().from(organizations).where(isNull(organizations.parent))
  const perParent = 100
  const parents = await db
    .insert(organizations)
    .values(
      Array.from({ length: Math.ceil(o.departments / perParent) }, (_, i) => ({
        organizationName: `测量部门${i}`,
        parent: root.id,
      })),
    )
    .returning({ id: organizations.id })
  const leaves = parents.flatMap((p, i) =>
    Array.from({ length: perParent - 1 }, (_, j) => ({
      organizationName: `测量小组${i}_${j}`,
      parent: p.id,
    })),
  )
  const leafIds: number[] = []
  for (let i = 0; i < leaves.length; i += 2000) {
    const rows = await db
      .insert(organizations)
      .values(leaves.slice(i, i + 2000))
      .returning({ id: organizations.id })
    leafIds.push(...rows.map((r) => r.id))
  }
  const stationIds = (await db.select({ id: stations.id }).from(stations)).map((s) => s.id)
  const extraPositions = leafIds.flatMap((orgId, i) =>
    [0, 1].map((k) => ({ orgId, stationId: stationIds[(i + k) % stationIds.length] })),
  )
  for (let i = 0; i < extraPositions.length; i += 2000)
    await db.insert(positions).values(extraPositions.slice(i, i + 2000))
  const now = Date.now()
  const groupRows = Array.from({ length: o.groups }, (_, i) => {
    const created = new Date(now - i * 60_000)
    return { groupName: `测量用户组${i}`, description: `第${i}组`, createTime: created, updateTime: created }
  })
  for (let i = 0; i < groupRows.length; i += 2000)
    await db.insert(userGroups).values(groupRows.slice(i, i + 2000))
  // PostgreSQL's autovacuum does this soon after a bulk load; PGlite has no autovacuum, so it stays as loaded
  if (database.kind === 'postgres') await db.execute(sql`vacuum analyze`)
  const [counts] = await queryRows<{ users: number; groups: number; positions: number }>(
    db,
    sql`select (select count(*)::int from users) as users, (select count(*)::int from user_groups) as groups,
      (select count(*)::int from positions) as positions`,
  )
  return counts
}

async function timeCall(app: FastifyInstance, token: string, call: Call, runs: number): Promise<CallFigure> {
  const took: number[] = []
  for (let i = 0; i <= runs; i++) {
    const started = performance.now()
    const res = await app.inject({
      method: 'POST',
      url: call.url,
      headers: { 'x-auth-token': token },
      payload: call.body,
    })
    took.push(performance.now() - started)
    if (res.statusCode !== 200) throw new Error(`${call.label}: ${res.statusCode} ${res.body.slice(0, 200)}`)
  }
  return { first: took[0], median: median(took.slice(1)) }
}

/** A fresh database on the engine measured (PostgreSQL: a new database on that server, dropped after). */
export async function openEngine(
  engine: Engine,
  postgresUrl: string | undefined,
): Promise<{ database: Database; drop: () => Promise<void> }> {
  if (engine === 'pglite')
    return { database: await openDatabase({ memory: true, stageAuditRows: true }), drop: async () => {} }
  const fresh = await throwawayDatabaseUrl(postgresUrl!)
  return { database: await openDatabase({ databaseUrl: fresh.url, stageAuditRows: true }), drop: fresh.drop }
}

async function measureEngine(
  engine: Engine,
  o: Required<Omit<MeasureOptions, 'postgresUrl'>> & MeasureOptions,
) {
  const { database, drop } = await openEngine(engine, o.postgresUrl)
  try {
    const started = Date.now()
    const counts = await fillLargeCompany(database, o)
    o.log(`${engine}: filled in ${((Date.now() - started) / 1000).toFixed(0)} s`)
    const config = loadConfig({}, { logLevel: 'warn', initialAdminPassword: 'Bench@Admin2026' })
    const app = await buildApp({ config, database, logger: false })
    try {
      const token = await adminToken(app, config.initialAdminPassword, true)
      const figures: Record<string, CallFigure> = {}
      for (const call of calls(counts.users, counts.groups, counts.positions))
        figures[call.label] = await timeCall(app, token, call, o.runs)
      // a department administrator (DESIGN.md §13: 本部门及以下) sees only the users of their subtree
      const scoped = await app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { nickName: SCOPED_ADMIN, password: config.initialUserPassword },
      })
      const scopedToken = scoped.json().data?.token as string | undefined
      if (!scopedToken) throw new Error(`${SCOPED_ADMIN} could not sign in: ${scoped.body}`)
      await app.inject({ method: 'GET', url: '/api/user/current', headers: { 'x-auth-token': scopedToken } })
      const first = await app.inject({
        method: 'POST',
        url: '/api/user/list',
        headers: { 'x-auth-token': scopedToken },
        payload: { pageNum: 1, pageSize: 10 },
      })
      const inScope = Number(first.json().data.total)
      o.log(`${engine}: ${SCOPED_ADMIN} sees ${inScope} of ${counts.users} users`)
      for (const call of scopedCalls(inScope))
        figures[call.label] = await timeCall(app, scopedToken, call, o.runs)
      return figures
    } finally {
      await app.close()
    }
  } finally {
    await database.close()
    await drop()
  }
}

export async function measureLists(options: MeasureOptions = {}): Promise<ListFigures> {
  const o = {
    users: 100_000,
    departments: 10_000,
    groups: 10_000,
    runs: 15,
    log: () => {},
    ...options,
  }
  const figures: ListFigures = { pglite: await measureEngine('pglite', o) }
  if (o.postgresUrl) figures.postgres = await measureEngine('postgres', o)
  return figures
}

function printTable(figures: ListFigures) {
  const engines = (['pglite', 'postgres'] as const).filter((e) => figures[e])
  const names = { pglite: 'PGlite', postgres: 'PostgreSQL' }
  const cell = (text: string) => text.padStart(24)
  console.log(['call'.padEnd(28), ...engines.map((e) => cell(`${names[e]} first / warm`))].join(''))
  for (const label of Object.keys(figures[engines[0]] ?? {}))
    console.log(
      [
        label.padEnd(28),
        ...engines.map((e) => {
          const { first, median } = figures[e]![label]
          return cell(`${first.toFixed(1)} / ${median.toFixed(1)}`)
        }),
      ].join(''),
    )
  console.log('milliseconds: the first run, then the median of the warm runs')
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const postgresUrl = process.env.DATABASE_URL
  measureLists({
    users: numberArg('users', 100_000),
    departments: numberArg('departments', 10_000),
    groups: numberArg('groups', 10_000),
    runs: numberArg('runs', 15),
    postgresUrl,
    log: (line) => console.log(line),
  })
    .then((figures) => {
      if (!postgresUrl) console.log('(DATABASE_URL not set: PostgreSQL not measured)')
      printTable(figures)
    })
    .catch((err) => {
      console.error(err)
      process.exit(1)
    })
}
