import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import * as schema from './schema'
import type { Db } from './connection'
import { EVENTS_CHANNEL, migrationsFolder, type Database, type OpenOptions } from './open-options'
import { acquireDataDirLock } from './data-dir-lock'
import { securePrivateDir, tightenTree } from './private-files'
import { migrateOrExplain } from './migration-refusal'

/** Extensions the migrations create (pg_trgm: the trigram indexes of substring filters). */
const extensions = { pg_trgm }

/** The embedded database: in a data directory (locked to this process), or in memory for tests. */
export async function openPglite(options: Exclude<OpenOptions, { databaseUrl: string }>): Promise<Database> {
  let releaseLock = () => {}
  let client: PGlite
  if ('dataDir' in options) {
    securePrivateDir(options.dataDir)
    releaseLock = acquireDataDirLock(options.dataDir)
    const pgliteDir = path.join(options.dataDir, 'pglite')
    try {
      client = await PGlite.create(pgliteDir, { extensions })
    } catch (err) {
      releaseLock()
      throw err
    }
    // A database initialised just now has its files at 0666 (PGlite sets them so); later ones follow the umask.
    tightenTree(pgliteDir)
  } else {
    client = await PGlite.create({
      extensions,
      ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
    })
  }
  const db = drizzlePglite({ client, schema }) as unknown as Db
  try {
    await migrateOrExplain(() => migratePglite(drizzlePglite({ client }), { migrationsFolder }))
  } catch (err) {
    // a start that stops here leaves the directory free for the next one
    await client.close().catch(() => {})
    releaseLock()
    throw err
  }
  // one connection, one session: set once, after the migrations
  if (options.stageAuditRows) await client.exec(`set amg.audit = 'on'`)
  const listeners: ((payload: string) => void)[] = []
  // One process owns an embedded database; its triggers' NOTIFY reaches this process when the
  // change commits, before the statement that committed it returns.
  await client.listen(EVENTS_CHANNEL, (payload) => {
    for (const l of listeners) l(payload)
  })
  return {
    db,
    kind: 'pglite',
    async notify(payload) {
      await client.query('select pg_notify($1, $2)', [EVENTS_CHANNEL, payload])
    },
    onNotify(listener) {
      listeners.push(listener)
    },
    hearsEveryChange: () => true,
    // PGlite's listener runs as the change commits
    heardSoFar: async () => {},
    heardAtCommit: true,
    async ping() {
      await client.query('select 1')
    },
    async close() {
      await client.close()
      releaseLock()
    },
    async dump() {
      return client.dumpDataDir('none')
    },
  }
}
