import { afterAll, beforeAll, expect, it } from 'vitest'
import { sql } from 'drizzle-orm'
import { queryRows } from '../src/db/connection'
import { REGISTRY_TRIGGER_NAMES, TABLE_TRIGGERS } from '../src/db/table-triggers'
import { createTestApp, type TestApp } from './helpers/app'

/**
 * The table registry and the migrations agree: every access-change and audit trigger the migrated
 * database holds is one the registry derives, on the same table with the same arguments, and none is
 * missing.
 */
let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(async () => t.close())

it('the migrated database carries exactly the triggers the table registry derives', async () => {
  const rows = await queryRows<{ def: string }>(
    t.db,
    sql`select pg_get_triggerdef(oid) as def from pg_trigger
        where not tgisinternal and tgname = any(${`{${REGISTRY_TRIGGER_NAMES.join(',')}}`}::text[])`,
  )
  const held = rows.map((r) => r.def).sort()
  expect(held).toEqual([...TABLE_TRIGGERS.values()].flat().sort())
})
