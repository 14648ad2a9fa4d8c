/**
 * Measures the audit trail (DESIGN.md §9): the operation-log list at 1,000,000 rows (first page and
 * filtered), and what a write costs with its log row against the same write without (the wrapper
 * switched off), interleaved in one run. Uses DATABASE_URL's server in a fresh database that is
 * dropped after, or an in-memory embedded database.
 *
 *   npm run measure:audit -w apps/server [-- --rows 1000000 --writes 300]
 */
import { sql } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../src/app'
import { loadConfig } from '../src/config'
import { seedBase } from '../src/seed/base'
import { openDatabase } from '../src/db/connection'
import { numberArg, openThrowawayDatabase } from './throwaway-database'
import { adminToken } from './bench/admin-session'

export interface AuditFigures {
  engine: 'pglite' | 'postgres'
  writeWithLogMs: number
  writeWithoutLogMs: number
  overheadPct: number
  /** operation-log list timings at `rows` rows, median ms */
  list: Record<string, number>
  rows: number
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

async function time(app: FastifyInstance, token: string, body: object, runs = 15): Promise<number> {
  const took: number[] = []
  for (let i = 0; i < runs; i++) {
    const started = performance.now()
    const res = await app.inject({
      method: 'POST',
      url: '/api/log/operation/list',
      headers: { 'x-auth-token': token },
      payload: body,
    })
    took.push(performance.now() - started)
    if (res.statusCode !== 200) throw new Error(res.body)
  }
  return median(took)
}

/** On DATABASE_URL's server when set, else on an in-memory embedded database. */
export async function measureAudit({
  rows = numberArg('rows', 1_000_000),
  writes = numberArg('writes', 300),
} = {}): Promise<AuditFigures> {
  const config = loadConfig(
    {},
    { logLevel: 'warn', passwordHashCost: 14, initialAdminPassword: 'Bench@Admin2026' },
  )
  const { database, url, drop } = await openThrowawayDatabase({ stageAuditRows: true })
  // without the log, writes must not stage changes either: on PostgreSQL the bare app gets connections
  // of its own; PGlite has one session, so staging is switched off around the bare app's writes
  const bareDatabase = url ? await openDatabase({ databaseUrl: url }) : database
  const staging = async (on: boolean) => {
    if (!url) await database.db.execute(sql.raw(`set amg.audit = '${on ? 'on' : 'off'}'`))
  }
  try {
    await seedBase(database.db, config)
    const app = await buildApp({ config, database, logger: false })
    const bare = await buildApp({ config, database: bareDatabase, logger: false, audit: false })
    const token = await adminToken(app, config.initialAdminPassword)
    const bareToken = await adminToken(bare, config.initialAdminPassword)

    // writes: the same user update through each app, interleaved
    const created = await app.inject({
      method: 'POST',
      url: '/api/user/insert',
      headers: { 'x-auth-token': token },
      payload: { nickName: 'measure_user' },
    })
    const userId = created.json().data as number
    const withLog: number[] = []
    const without: number[] = []
    for (let i = 0; i < writes; i++) {
      for (const [target, t, out] of [
        [app, token, withLog],
        [bare, bareToken, without],
      ] as const) {
        await staging(target === app)
        const started = performance.now()
        const res = await target.inject({
          method: 'PUT',
          url: '/api/user/update',
          headers: { 'x-auth-token': t },
          payload: { id: userId, nickName: 'measure_user', realName: `第${i}次`, status: 1 },
        })
        out.push(performance.now() - started)
        if (res.statusCode !== 200) throw new Error(res.body)
      }
    }
    const w = median(withLog)
    const wo = median(without)
    const figures: AuditFigures = {
      engine: url ? 'postgres' : 'pglite',
      writeWithLogMs: Math.round(w * 100) / 100,
      writeWithoutLogMs: Math.round(wo * 100) / 100,
      overheadPct: Math.round(((w - wo) / wo) * 1000) / 10,
      list: {},
      rows,
    }
    console.log(
      `write (PUT /user/update), median of ${writes}: ${w.toFixed(2)} ms with its log row, ${wo.toFixed(2)} ms without: ${(((w - wo) / wo) * 100).toFixed(1)}% slower`,
    )

    // the list at a million rows
    let started = Date.now()
    await database.db.execute(sql`
      insert into operation_logs (time, operator_id, operator_name, ip, method, path, summary, resource_type, resource_id, result, status, msg)
      select now() - (g * interval '1 second'), 1, 'operator' || (g % 50), '10.0.0.' || (g % 250), 'PUT',
        '/api/user/update', (array['修改用户','新建用户','删除用户','用户关联角色'])[1 + g % 4],
        (array['用户管理','角色管理','用户组管理','岗位管理'])[1 + g % 4], (g % 5000)::text,
        (array['success','success','success','denied'])[1 + g % 4], 200, '修改成功'
      from generate_series(1, ${rows}) g`)
    await database.db.execute(sql`analyze operation_logs`)
    console.log(`built ${rows.toLocaleString()} rows in ${((Date.now() - started) / 1000).toFixed(1)} s`)
    started = Date.now()
    const results: [string, object][] = [
      ['first page', { pageNum: 1, pageSize: 10 }],
      ['page 100', { pageNum: 100, pageSize: 10 }],
      ['operator filter', { operatorName: 'operator7' }],
      ['resource filter', { resourceType: '角色管理' }],
      ['result filter', { result: 'denied' }],
      [
        'time range (1 day)',
        { from: new Date(Date.now() - 86_400_000).toISOString(), to: new Date().toISOString() },
      ],
    ]
    for (const [name, body] of results) {
      figures.list[name] = Math.round((await time(app, token, body)) * 10) / 10
      console.log(`operation log ${name}: ${figures.list[name]} ms (median)`)
    }
    await app.close()
    await bare.close()
    return figures
  } finally {
    if (bareDatabase !== database) await bareDatabase.close()
    await database.close()
    await drop()
  }
}

if (import.meta.url === `file://${process.argv[1]}`)
  measureAudit().catch((err) => {
    console.error(err)
    process.exit(1)
  })
