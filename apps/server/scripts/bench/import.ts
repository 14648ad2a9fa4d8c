/**
 * Import and export at scale (DESIGN.md §15): `IMPORT_BENCH_ROWS` users (100,000 unless set), each
 * with a position, a role and a group, imported from one workbook through POST /api/user/import, then
 * exported through GET /api/user/export; on PGlite and, when reachable, PostgreSQL. Reports the
 * seconds each takes and how much the server process grew (resident memory, sampled). Goals (DESIGN.md
 * §15): import ≤ 60 s on PostgreSQL and ≤ 120 s on PGlite, growth ≤ 300 MB, export ≤ 15 s.
 *
 *   npx tsx apps/server/scripts/bench/import.ts            (or as part of `npm run bench`)
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { eq } from 'drizzle-orm'
import { buildApp } from '../../src/app'
import { loadConfig } from '../../src/config'
import { adminToken } from './admin-session'
import { seedBase } from '../../src/seed/base'
import { organizations, positions, roleAuths, roles, stations, userGroups } from '../../src/db/schema'
import { streamWorkbook } from '../../src/lib/workbook'
import { USER_COLUMNS } from '../../src/modules/import/user-rows'
import { openDatabase } from '../../src/db/connection'
import { openEngine, type Engine } from '../measure-large-data'

export interface ImportFigures {
  rows: number
  importSeconds: number
  exportSeconds: number
  growthMb: number
  inserted: number
  failed: number
}

/** IMPORT_BENCH_VERBOSE=1: the job's progress on stderr, every 200 ms. */
const progress = (text: string) => {
  if (process.env.IMPORT_BENCH_VERBOSE) console.error(text)
}

const DEPARTMENTS = 100
const ROLES = 20
const GROUPS = 20

async function workbookOf(rows: number): Promise<Buffer> {
  function* cells() {
    for (let i = 0; i < rows; i++)
      yield [
        `bench_u${i}`,
        `用户${i}`,
        String(13000000000 + i),
        '正常',
        `总公司/部门${i % DEPARTMENTS}/员工`,
        `角色${i % ROLES}`,
        `用户组${i % GROUPS}`,
        '',
      ]
  }
  const chunks: Buffer[] = []
  for await (const chunk of streamWorkbook('用户', USER_COLUMNS, cells())) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

/**
 * PGlite as the server runs it: its files in a data directory (a temporary one, removed after), not in
 * memory, where the database's own files would count as the server's growth.
 */
async function pgliteOnDisk() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'amg-import-bench-'))
  const database = await openDatabase({ dataDir, stageAuditRows: true })
  return {
    database,
    drop: async () => {
      await database.close()
      fs.rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

async function measureEngine(engine: Engine, postgresUrl: string | undefined, rows: number) {
  const { database, drop } =
    engine === 'pglite' ? await pgliteOnDisk() : await openEngine(engine, postgresUrl)
  // the operator's own admin password: signing in is not a restricted session (DESIGN.md §14)
  const config = loadConfig({ INITIAL_ADMIN_PASSWORD: 'Bench@Admin2026' }, { logLevel: 'warn' })
  await seedBase(database.db, config)
  const { db } = database
  const [root] = await db.select().from(organizations).where(eq(organizations.organizationName, '总公司'))
  const [station] = await db.insert(stations).values({ stationName: '员工' }).returning()
  const depts = await db
    .insert(organizations)
    .values(
      Array.from({ length: DEPARTMENTS }, (_, i) => ({ organizationName: `部门${i}`, parent: root.id })),
    )
    .returning({ id: organizations.id })
  await db.insert(positions).values(depts.map((d) => ({ orgId: d.id, stationId: station.id })))
  const roleRows = await db
    .insert(roles)
    .values(Array.from({ length: ROLES }, (_, i) => ({ roleName: `角色${i}`, type: 3, status: 1 })))
    .returning({ id: roles.id })
  await db.insert(roleAuths).values(roleRows.map((r) => ({ roleId: r.id, authCode: 'user' })))
  await db
    .insert(userGroups)
    .values(Array.from({ length: GROUPS }, (_, i) => ({ groupName: `用户组${i}`, status: 1 })))

  const file = await workbookOf(rows)
  const app = await buildApp({ config, database, logger: false })
  try {
    const headers = { 'x-auth-token': await adminToken(app, config.initialAdminPassword) }
    const form = new FormData()
    form.append('mode', 'insert')
    form.append('file', new Blob([file as Uint8Array<ArrayBuffer>]), 'users.xlsx')
    const body = new Response(form)
    global.gc?.()
    const baseline = process.memoryUsage().rss
    let peak = baseline
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 100)
    const started = performance.now()
    const res = await app.inject({
      method: 'POST',
      url: '/api/user/import',
      headers: { ...headers, 'content-type': body.headers.get('content-type')! },
      payload: Buffer.from(await body.arrayBuffer()),
    })
    if (res.statusCode !== 200 || !res.json().data)
      throw new Error(`import answered ${res.statusCode}: ${res.body}`)
    const jobId = res.json().data.jobId as string
    let job: { status: string; inserted: number; failed: number }
    for (;;) {
      job = (await app.inject({ method: 'GET', url: `/api/import/job?jobId=${jobId}`, headers })).json().data
      if (job.status !== 'running') break
      progress(`${engine}: ${JSON.stringify(job)}`)
      await new Promise((r) => setTimeout(r, 200))
    }
    const importSeconds = (performance.now() - started) / 1000
    clearInterval(sampler)
    const exportStarted = performance.now()
    const exported = await app.inject({ method: 'GET', url: '/api/user/export', headers })
    if (exported.statusCode !== 200) throw new Error(`export answered ${exported.statusCode}`)
    const exportSeconds = (performance.now() - exportStarted) / 1000
    return {
      rows,
      importSeconds,
      exportSeconds,
      growthMb: (peak - baseline) / 1024 / 1024,
      inserted: job.inserted,
      failed: job.failed,
    }
  } finally {
    await app.close()
    await drop()
  }
}

export async function measureImport(options: { postgresUrl?: string; rows?: number } = {}) {
  const rows = options.rows ?? Number(process.env.IMPORT_BENCH_ROWS ?? 100_000)
  // IMPORT_BENCH_ENGINES=postgres (or pglite): one engine only
  const engines = (process.env.IMPORT_BENCH_ENGINES ?? 'pglite,postgres').split(',')
  const figures: Partial<Record<Engine, ImportFigures>> = {}
  if (engines.includes('pglite')) figures.pglite = await measureEngine('pglite', undefined, rows)
  if (options.postgresUrl && engines.includes('postgres'))
    figures.postgres = await measureEngine('postgres', options.postgresUrl, rows)
  return figures
}

if (process.argv[1]?.endsWith(`bench${path.sep}import.ts`)) {
  measureImport({ postgresUrl: process.env.DATABASE_URL })
    .then((f) => console.log(JSON.stringify(f, null, 2)))
    .catch((err: unknown) => {
      console.error(err)
      process.exitCode = 1
    })
}
