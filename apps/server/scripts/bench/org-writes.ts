/**
 * What a department insert costs as the tree grows (DESIGN.md §12: a change costs the same at 10 and at
 * 10,000 departments). On a fresh database of each engine, departments are made directly in SQL, 10
 * first (a chain from the root down), then 10,000; at each size `inserts` departments are added through
 * the API (`POST /api/org/insert`, as the super admin, one after another) at the top (under the root)
 * and deep down (under the chain's last department), and the whole tree is read after them: its
 * first read (built, serialized and compressed once for the new version) and warm reads.
 * Run alone: `npx tsx scripts/bench/org-writes.ts` in apps/server (DATABASE_URL adds PostgreSQL);
 * part of `npm run bench` as `org-writes`.
 */
import { isNull, sql } from 'drizzle-orm'
import { buildApp } from '../../src/app'
import { loadConfig } from '../../src/config'
import type { Database } from '../../src/db/connection'
import { organizations } from '../../src/db/schema'
import { seedBase } from '../../src/seed/base'
import { openEngine } from '../measure-large-data'

type Engine = 'pglite' | 'postgres'

/** The chain from the root down: its last department is where the deep inserts go. */
const CHAIN = 9

export interface OrgWriteFigures {
  engine: Engine
  departments: number
  /** ms per insert, median (and mean) of `inserts`, under the root and under the chain's last department */
  topMs: { median: number; mean: number }
  deepMs: { median: number; mean: number }
  /** the whole tree after the inserts: first read (built once) and warm median, ms */
  treeFirstMs: number
  treeWarmMs: number
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length
const round = (ms: number) => Math.round(ms * 100) / 100

/** Departments under the root made in SQL: the chain, then (to `total`) regions, branches and groups. */
async function addDepartments(database: Database, total: number): Promise<{ root: number; deep: number }> {
  const { db } = database
  const [root] = await db
    .select({ id: organizations.id })
    .from(organizations)
    .where(isNull(organizations.parent))
  const [{ count }] = await db.select({ count: sql<number>`count(*)::int` }).from(organizations)
  let deep = root.id
  if (count === 1)
    for (let depth = 1; depth <= CHAIN; depth++) {
      const [made] = await db
        .insert(organizations)
        .values({ organizationName: `链${depth}`, parent: deep })
        .returning({ id: organizations.id })
      deep = made.id
    }
  else {
    const [last] = await db
      .select({ id: organizations.id })
      .from(organizations)
      .where(sql`${organizations.organizationName} = ${`链${CHAIN}`}`)
    deep = last.id
  }
  const missing = total - (count === 1 ? CHAIN + 1 : count)
  if (missing > 0) {
    // 20 regions of 20 branches each, the rest in groups under the branches (as a company grows)
    await db.execute(sql`
      with regions as (
        insert into organizations (organization_name, parent)
        select '区' || r, ${root.id} from generate_series(1, 20) r returning id, organization_name
      ), branches as (
        insert into organizations (organization_name, parent)
        select regions.organization_name || '部' || b, regions.id from regions, generate_series(1, 20) b
        returning id, organization_name
      )
      insert into organizations (organization_name, parent)
      select branches.organization_name || '组' || g, branches.id
      from branches, generate_series(1, ceil(${missing - 420}::numeric / 400)::int) g
      order by g, branches.id
      limit ${missing - 420}`)
  }
  return { root: root.id, deep }
}

async function measureEngine(
  engine: Engine,
  postgresUrl: string | undefined,
  inserts: number,
): Promise<OrgWriteFigures[]> {
  const { database, drop } = await openEngine(engine, postgresUrl)
  const config = loadConfig({}, { logLevel: 'warn', initialAdminPassword: 'Bench@Admin2026' })
  try {
    await seedBase(database.db, config)
    const app = await buildApp({ config, database, logger: false })
    try {
      const login = await app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { nickName: 'admin', password: config.initialAdminPassword },
      })
      const headers = { 'x-auth-token': login.json().data.token as string, 'accept-encoding': 'br' }
      const readTree = async () => {
        const started = performance.now()
        const res = await app.inject({ method: 'GET', url: '/api/org/tree', headers })
        if (res.statusCode !== 200) throw new Error(`tree: ${res.statusCode} ${res.body.slice(0, 200)}`)
        return performance.now() - started
      }
      let made = 0
      const insertUnder = async (parent: number) => {
        const took: number[] = []
        for (let i = 0; i < inserts; i++) {
          const started = performance.now()
          const res = await app.inject({
            method: 'POST',
            url: '/api/org/insert',
            headers,
            payload: { organizationName: `压测部门${++made}`, parent },
          })
          took.push(performance.now() - started)
          if (res.statusCode !== 200) throw new Error(`insert: ${res.statusCode} ${res.body.slice(0, 200)}`)
        }
        // the first few warm up the paths (JIT, caches): the figure is the rest
        const measured = took.slice(Math.min(5, Math.floor(inserts / 4)))
        return { median: round(median(measured)), mean: round(mean(measured)) }
      }
      const figures: OrgWriteFigures[] = []
      for (const departments of [10, 10_000]) {
        const { root, deep } = await addDepartments(database, departments)
        await readTree()
        const topMs = await insertUnder(root)
        const deepMs = await insertUnder(deep)
        const treeFirstMs = await readTree()
        const warm: number[] = []
        for (let i = 0; i < 20; i++) warm.push(await readTree())
        figures.push({
          engine,
          departments,
          topMs,
          deepMs,
          treeFirstMs: round(treeFirstMs),
          treeWarmMs: round(median(warm)),
        })
      }
      return figures
    } finally {
      await app.close()
    }
  } finally {
    await database.close()
    await drop()
  }
}

/** Both engines (PostgreSQL when a URL is given), `inserts` inserts at each place and size. */
export async function measureOrgWrites(options: {
  postgresUrl?: string
  inserts?: number
}): Promise<OrgWriteFigures[]> {
  const inserts = options.inserts ?? 100
  const figures = await measureEngine('pglite', undefined, inserts)
  if (options.postgresUrl) figures.push(...(await measureEngine('postgres', options.postgresUrl, inserts)))
  return figures
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await measureOrgWrites({
    postgresUrl: process.env.DATABASE_URL,
    inserts: Number(process.env.ORG_BENCH_INSERTS ?? 100),
  })
  console.table(
    figures.map((f) => ({
      engine: f.engine,
      departments: f.departments,
      'top ms (median/mean)': `${f.topMs.median} / ${f.topMs.mean}`,
      'deep ms (median/mean)': `${f.deepMs.median} / ${f.deepMs.mean}`,
      'tree first / warm ms': `${f.treeFirstMs} / ${f.treeWarmMs}`,
    })),
  )
}
