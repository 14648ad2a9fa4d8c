import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { openDatabase, type Database } from '../src/db/connection'

/** A numeric command-line argument (`--name N`), or the fallback. */
export const numberArg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? Number(process.argv[i + 1]) : fallback
}

/** A fresh, empty database on the server of `url`, and how to drop it. */
export async function throwawayDatabaseUrl(url: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `amg_measure_${randomBytes(4).toString('hex')}`
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  await admin.query(`CREATE DATABASE ${name}`)
  const u = new URL(url)
  u.pathname = `/${name}`
  return {
    url: u.toString(),
    drop: async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await admin.end()
    },
  }
}

/**
 * A database for a measuring script: a fresh one on DATABASE_URL's server, dropped by `drop`, or an
 * in-memory embedded one.
 */
export async function openThrowawayDatabase(
  settings: { stageAuditRows?: boolean } = {},
): Promise<{ database: Database; url?: string; drop: () => Promise<void> }> {
  const url = process.env.DATABASE_URL
  if (!url) return { database: await openDatabase({ memory: true, ...settings }), drop: async () => {} }
  const fresh = await throwawayDatabaseUrl(url)
  return {
    database: await openDatabase({ databaseUrl: fresh.url, ...settings }),
    url: fresh.url,
    drop: fresh.drop,
  }
}
