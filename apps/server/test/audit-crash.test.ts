import { describe, expect, it, inject } from 'vitest'
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { inArray } from 'drizzle-orm'
import { openDatabase } from '../src/db/connection'
import { operationLogs } from '../src/db/audit-schema'
import { users } from '../src/db/schema'
import { TEST_ADMIN_PASSWORD } from './helpers/constants'

/**
 * DESIGN.md §9: a change and its operation-log row commit together. A real server on an embedded
 * database takes a stream of writes and is killed with SIGKILL in the middle; after a restart every
 * acknowledged write has its row, and no row names a change that is not there.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..')

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = net.createServer()
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo
      server.close(() => resolve(port))
    })
  })

describe.skipIf(!!inject('pgTemplate'))('a crash in the middle of writes (PGlite)', () => {
  it('loses no log row of an acknowledged write and keeps no row of a lost one', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'amg-crash-'))
    const port = await freePort()
    const server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/server.ts'], {
      cwd: root,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        INITIAL_ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
        PASSWORD_HASH_COST: '14',
        LOG_LEVEL: 'error',
      },
      stdio: 'ignore',
    })
    try {
      const base = `http://127.0.0.1:${port}/api`
      const deadline = Date.now() + 60_000
      for (;;) {
        const up = await fetch(`${base}/health`).then(
          (r) => r.ok,
          () => false,
        )
        if (up) break
        if (Date.now() > deadline) throw new Error('the server did not start')
        await new Promise((r) => setTimeout(r, 200))
      }
      const login = await fetch(`${base}/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ nickName: 'admin', password: TEST_ADMIN_PASSWORD }),
      }).then((r) => r.json() as Promise<{ data: { token: string } }>)
      const token = login.data?.token
      if (!token) throw new Error(`sign-in failed: ${JSON.stringify(login)}`)
      const acknowledged: number[] = []
      let stop = false
      // four writers at once, until the kill
      const writer = async (w: number) => {
        for (let i = 0; !stop; i++) {
          try {
            const res = await fetch(`${base}/user/insert`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', 'x-auth-token': token },
              body: JSON.stringify({ nickName: `crash_${w}_${i}` }),
            })
            if (res.status === 200) acknowledged.push(((await res.json()) as { data: number }).data)
          } catch {
            return // the connection died with the server
          }
        }
      }
      const writers = [0, 1, 2, 3].map(writer)
      const writing = Date.now()
      while (acknowledged.length < 40) {
        if (Date.now() - writing > 60_000) throw new Error(`only ${acknowledged.length} writes in a minute`)
        await new Promise((r) => setTimeout(r, 20))
      }
      server.kill('SIGKILL')
      stop = true
      await Promise.all(writers)
      if (server.exitCode === null && server.signalCode === null)
        await new Promise((r) => server.once('exit', r))

      const database = await openDatabase({ dataDir })
      try {
        const logged = await database.db
          .select({ resourceId: operationLogs.resourceId })
          .from(operationLogs)
          .where(inArray(operationLogs.summary, ['新建用户']))
        const loggedIds = new Set(logged.map((r) => Number(r.resourceId)))
        for (const id of acknowledged) expect(loggedIds.has(id), `user ${id} has no log row`).toBe(true)
        const existing = await database.db.select({ id: users.id }).from(users)
        const existingIds = new Set(existing.map((u) => u.id))
        for (const id of loggedIds) expect(existingIds.has(id), `log row for missing user ${id}`).toBe(true)
        expect(acknowledged.length).toBeGreaterThanOrEqual(40)
      } finally {
        await database.close()
      }
    } finally {
      if (server.exitCode === null && server.signalCode === null) server.kill('SIGKILL')
      fs.rmSync(dataDir, { recursive: true, force: true })
    }
  }, 180_000)
})
