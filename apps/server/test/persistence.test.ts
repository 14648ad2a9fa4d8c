import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, inject, it } from 'vitest'
import { count } from 'drizzle-orm'
import { buildApp } from '../src/app'
import { loadConfig } from '../src/config'
import { openDatabase } from '../src/db/connection'
import { seedBase } from '../src/seed/base'
import { auths, organizations, roles, users } from '../src/db/schema'

// About the embedded database on disk, so it runs in the PGlite pass only.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'amg-persist-'))
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }))

async function start() {
  const config = loadConfig({}, { dataDir })
  const database = await openDatabase({ dataDir, stageAuditRows: true })
  await seedBase(database.db, config)
  const app = await buildApp({ config, database, logger: false })
  return { app, database, config }
}

const tally = async (db: Awaited<ReturnType<typeof openDatabase>>['db']) => ({
  auths: (await db.select({ n: count() }).from(auths))[0].n,
  roles: (await db.select({ n: count() }).from(roles))[0].n,
  users: (await db.select({ n: count() }).from(users))[0].n,
  orgs: (await db.select({ n: count() }).from(organizations))[0].n,
})

// Two starts at the server's real hashing cost (2^17: the seeded admin, the dummy hash made at start, a
// sign-in): on a busy 2-core machine that can pass the suite's 30 s default, so this file gets more time.
describe.skipIf(!!inject('pgTemplate'))('the embedded database', { timeout: 120_000 }, () => {
  it('keeps data across a restart and seeds nothing twice', async () => {
    const first = await start()
    const login = await first.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { nickName: 'admin', password: 'Admin@123456' },
    })
    const token = login.json().data.token
    const change = await first.app.inject({
      method: 'PUT',
      url: '/api/user/password',
      headers: { 'x-auth-token': token },
      payload: { oldPassword: 'Admin@123456', newPassword: 'Changed#Pass2026' },
    })
    expect(change.statusCode).toBe(200)
    const before = await tally(first.database.db)
    await first.app.close()
    await first.database.close()

    const second = await start()
    expect(await tally(second.database.db)).toEqual(before)
    const again = await second.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { nickName: 'admin', password: 'Changed#Pass2026' },
    })
    expect(again.statusCode).toBe(200)
    await second.app.close()
    await second.database.close()
  })

  it('refuses a second server on the same DATA_DIR with a clear message', async () => {
    const held = await openDatabase({ dataDir })
    try {
      const serverEntry = path.resolve(__dirname, '../src/server.ts')
      const res = spawnSync(process.execPath, ['--import', 'tsx', serverEntry], {
        env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', PORT: '0', HOST: '127.0.0.1' },
        encoding: 'utf8',
        timeout: 60_000,
      })
      expect(res.status).toBe(1)
      expect(res.stderr).toContain('正被另一个服务进程')
    } finally {
      await held.close()
    }
    expect(fs.existsSync(path.join(dataDir, 'server.lock'))).toBe(false)
  })
})
