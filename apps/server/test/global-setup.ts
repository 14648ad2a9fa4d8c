import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import type { TestProject } from 'vitest/node'
import { openDatabase } from '../src/db/connection'
import { seedBase } from '../src/seed/base'
import { securitySettings } from '../src/db/schema'
import { configurePasswordHashing } from '../src/auth/password'
import { loadSigningKeys } from '../src/modules/oidc/keys'
import { SecretBox } from '../src/lib/secret-box'
import { TEST_ADMIN_PASSWORD, TEST_SECRET_KEY } from './helpers/constants'

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string
    pgTemplate: string
  }
}

/**
 * Builds one migrated, seeded template per run; every test file then clones it, which is much
 * faster than migrating and seeding again. With TEST_DATABASE_URL the suite runs on PostgreSQL:
 * the template is a database there, cloned with CREATE DATABASE ... TEMPLATE and dropped after.
 */
export default async function setup(project: TestProject) {
  configurePasswordHashing(14) // the seeded admin's hash, like every test hash, at the fast cost (helpers/app.ts)
  const url = process.env.TEST_DATABASE_URL
  if (url) {
    const name = `amg_tmpl_${process.pid}_${Date.now()}`
    const admin = new pg.Client({ connectionString: url })
    await admin.connect()
    await admin.query(`CREATE DATABASE ${name}`)
    const database = await openDatabase({ databaseUrl: withDatabase(url, name) })
    await seedTemplate(database.db)
    await database.close()
    project.provide('pgTemplate', name)
    project.provide('pgliteTemplate', '')
    return async () => {
      // Drop the template and any clone of this run that a crashed test file left behind.
      const { rows } = await admin.query<{ datname: string }>(
        `select datname from pg_database where datname like $1 or datname = $2`,
        [`${name}_c_%`, name],
      )
      for (const r of rows) await admin.query(`DROP DATABASE IF EXISTS ${r.datname} WITH (FORCE)`)
      await admin.end()
    }
  }
  const database = await openDatabase({ memory: true })
  await seedTemplate(database.db)
  const dump = await database.dump!()
  await database.close()
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'amg-test-')), 'template.tar')
  fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()))
  project.provide('pgliteTemplate', file)
  project.provide('pgTemplate', '')
  return () => fs.rmSync(path.dirname(file), { recursive: true, force: true })
}

/**
 * The seed as a deployment that chose its admin password has it. Users the tests create through the
 * admin's forms would have to change their password at their first sign-in (DESIGN.md §14), which is
 * not what those tests are about: the template turns that setting off, as an operator may, and the
 * sign-in security tests turn it on again through the settings call.
 *
 * It also holds the single sign-on signing keys a first start makes (sealed with the tests' SECRET_KEY),
 * as a deployment's database does after that start: every test app would otherwise make its own RSA
 * key, a good part of its start-up.
 */
async function seedTemplate(db: Parameters<typeof seedBase>[0]) {
  await seedBase(db, { initialAdminPassword: TEST_ADMIN_PASSWORD, initialAdminPasswordChosen: true })
  await db.update(securitySettings).set({ forceChangeInitial: false })
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'amg-keys-'))
  await loadSigningKeys(db, SecretBox.fromConfig({ secretKey: TEST_SECRET_KEY, dataDir }))
  fs.rmSync(dataDir, { recursive: true, force: true })
}

export function withDatabase(url: string, name: string): string {
  const u = new URL(url)
  u.pathname = `/${name}`
  return u.toString()
}
