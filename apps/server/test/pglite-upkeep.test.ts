import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest'
import { sql } from 'drizzle-orm'
import { queryRows } from '../src/db/connection'
import { vacuumChurningTables } from '../src/db/pglite-upkeep'
import { createTestApp, type TestApp } from './helpers/app'

/** The embedded database has no autovacuum: the tables every write churns are kept at their working size. */
let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t?.close())

const size = async () =>
  Number((await queryRows<{ s: string }>(t.db, sql`select pg_relation_size('audit_changes') as s`))[0].s)

/** What every audited write does to the staging table: stage a change, take it back out. */
async function writes(n: number) {
  for (let i = 0; i < n; i++)
    await t.db.transaction(async (tx) => {
      await tx.execute(sql`update users set real_name = ${`upkeep ${i}`} where nick_name = 'admin'`)
      await tx.execute(sql`delete from audit_changes where tx = txid_current_if_assigned()`)
    })
}

describe.skipIf(!!inject('pgTemplate'))('embedded database upkeep', () => {
  it('runs when the app is ready', async () => {
    // first, before anything here vacuums: the app's own upkeep, started when it became ready
    await vi.waitFor(async () => {
      const [row] = await queryRows<{ vacuumed: string | null }>(
        t.db,
        sql`select last_vacuum::text as vacuumed from pg_stat_user_tables where relname = 'audit_changes'`,
      )
      expect(row?.vacuumed).not.toBeNull()
    })
  })

  it('vacuums the staging table the writes churn, so that it stops growing', async () => {
    await writes(1500)
    const grown = await size()
    await vacuumChurningTables(t.db)
    expect(await size()).toBeLessThan(grown)

    // from then on, writes between two upkeeps reuse the space the last one freed
    await writes(1500)
    const afterFirstRound = await size()
    await vacuumChurningTables(t.db)
    await writes(1500)
    expect(await size()).toBeLessThanOrEqual(afterFirstRound)
    const [{ staged }] = await queryRows<{ staged: number }>(
      t.db,
      sql`select count(*)::int as staged from audit_changes`,
    )
    expect(staged).toBe(0)
  })
})
