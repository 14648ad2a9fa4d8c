/**
 * `npx tsx apps/server/scripts/bench/org-tree.ts`: what GET /org/tree costs on 10,000 departments
 * (embedded database), whole against by parts: the root level, one level, a narrow and a wide name
 * search, one department's path. For each: the first call (nothing kept yet), the median of the warm
 * calls (the kept answer), and the bytes sent plain and with brotli. Figures only; not part of the tests.
 */
import { isNull } from 'drizzle-orm'
import { buildApp } from '../../src/app'
import { loadConfig } from '../../src/config'
import { adminToken } from './admin-session'
import { openDatabase } from '../../src/db/connection'
import { seedBase } from '../../src/seed/base'
import { organizations } from '../../src/db/schema'

const REGIONS = 20
const BRANCHES = 20 // per region
const GROUPS = 24 // per branch: 20 + 400 + 9,600 departments under the root
const RUNS = 30

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`

async function main() {
  const database = await openDatabase({ memory: true, stageAuditRows: true })
  const config = loadConfig({}, { logLevel: 'warn', initialAdminPassword: 'Bench@Admin2026' })
  await seedBase(database.db, config)
  const { db } = database
  const [root] = await db.select().from(organizations).where(isNull(organizations.parent))
  const regions = await db
    .insert(organizations)
    .values(Array.from({ length: REGIONS }, (_, i) => ({ organizationName: `区${i}`, parent: root.id })))
    .returning({ id: organizations.id, name: organizations.organizationName })
  const branches = await db
    .insert(organizations)
    .values(
      regions.flatMap((r) =>
        Array.from({ length: BRANCHES }, (_, j) => ({ organizationName: `${r.name}部${j}`, parent: r.id })),
      ),
    )
    .returning({ id: organizations.id, name: organizations.organizationName })
  const groups = branches.flatMap((b) =>
    Array.from({ length: GROUPS }, (_, k) => ({ organizationName: `${b.name}组${k}`, parent: b.id })),
  )
  for (let i = 0; i < groups.length; i += 2000)
    await db.insert(organizations).values(groups.slice(i, i + 2000))
  const total = (await db.select({ id: organizations.id }).from(organizations)).length
  const deep = await db.select({ id: organizations.id }).from(organizations).orderBy(organizations.id)

  const app = await buildApp({ config, database, logger: false })
  try {
    const token = await adminToken(app, config.initialAdminPassword, true)

    const get = async (url: string, encoding?: string) => {
      const started = process.hrtime.bigint()
      const res = await app.inject({
        method: 'GET',
        url: `/api/org/tree${url}`,
        headers: { 'x-auth-token': token, ...(encoding ? { 'accept-encoding': encoding } : {}) },
      })
      const ms = Number(process.hrtime.bigint() - started) / 1e6
      if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`)
      return { ms, bytes: res.rawPayload.length }
    }

    const cases: [string, string][] = [
      ['whole tree', ''],
      ['root level (roots=1)', '?roots=1'],
      ['one level, 20 children (parentId)', `?parentId=${root.id}`],
      ['one level, 24 children (parentId)', `?parentId=${branches[137].id}`],
      ['search, 11 hits (keyword)', `?keyword=${encodeURIComponent('区3部7组1')}`],
      ['search, 200 hits (keyword)', `?keyword=${encodeURIComponent('组1')}`],
      ['one department with its path (pathTo)', `?pathTo=${deep[deep.length - 1].id}`],
    ]
    console.log(`GET /api/org/tree on ${total} departments (PGlite), ${RUNS} warm runs each\n`)
    console.log('| call | first | warm median | plain | brotli |')
    console.log('| --- | --- | --- | --- | --- |')
    for (const [label, url] of cases) {
      const first = await get(url, 'br')
      const plain = await get(url)
      const warm: number[] = []
      for (let i = 0; i < RUNS; i++) warm.push((await get(url, 'br')).ms)
      console.log(
        `| ${label} | ${first.ms.toFixed(1)} ms | ${median(warm).toFixed(2)} ms | ${kB(plain.bytes)} | ${kB(first.bytes)} |`,
      )
    }
  } finally {
    await app.close()
    await database.close()
  }
}

await main()
