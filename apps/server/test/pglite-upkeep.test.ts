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
  Number((await queryRows<{ s: string }>(t.db, sql`select pg_relation_size('sessions') as s`))[0].s)

/** What ordinary use does to the sessions table: a session touched, or made and ended. */
async function writes(n: number) {
  for (let i = 0; i < n; i++) {
    if (i % 2) {
      await t.db.execute(sql`update sessions set last_seen_time = now()`)
      continue
    }
    await t.db.execute(sql`insert into sessions (token_hash, user_id, expires_at)
      select ${`upkeep-${i}`}, id, now() from users where nick_name = 'admin'`)
    await t.db.execute(sql`delete from sessions where token_hash = ${`upkeep-${i}`}`)
  }
}

describe.skipIf(!!inject('pgTemplate'))('embedded database upkeep', () => {
  it('runs when the app is ready', async () => {
    // first, before anything here vacuums: the app's own upkeep, started when it became ready
    await vi.waitFor(async () => {
      const [row] = await queryRows<{ vacuumed: string | null }>(
        t.db,
        sql`select last_vacuum::text as vacuumed from pg_stat_user_tables where relname = 'sessions'`,
      )
      expect(row?.vacuumed).not.toBeNull()
    })
  })

  it('vacuums the sessions table use churns, so that it stops growing', async () => {
    await writes(1500)
    const first = await size()
    await writes(1500) // no upkeep in between: the table grows
    const grown = await size()
    expect(grown).toBeGreaterThan(first)

    // after the upkeep, as many writes again fit in the space it freed
    await vacuumChurningTables(t.db)
    await writes(3000)
    expect(await size()).toBeLessThanOrEqual(grown)
  })
})
