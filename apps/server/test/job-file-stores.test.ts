import fs from 'node:fs'
import path from 'node:path'
import { randomBytes, randomUUID } from 'node:crypto'
import { Readable } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'drizzle-orm'
import { MSG } from '@amg/contract'
import { queryRows } from '../src/db/connection'
import { files } from '../src/db/schema'
import { SheetRows } from '../src/lib/sheet-rows'
import { newJob, type Job } from '../src/modules/import/job-parts'
import { MemoryJobStore, type JobStore } from '../src/modules/import/job-store'
import { PgJobStore } from '../src/modules/import/pg-job-store'
import { CHUNK_BYTES } from '../src/db/chunks'
import { fileStoreFor, filesDir } from '../src/modules/file/store'
import { moveFilesIntoDatabase } from '../src/modules/file/move-to-database'
import { createTestApp, type TestApp } from './helpers/app'
import { sheetRows } from './helpers/workbooks'

/**
 * The job and file stores of DESIGN.md §19 on the engine of this run: PGlite keeps jobs in memory and
 * files under DATA_DIR; PostgreSQL keeps both in the database, where a job's lease can run out.
 */
let t: TestApp
const errors: Error[] = []
const LEASE = { leaseSeconds: 0.6, heartbeatSeconds: 0.2 }

beforeAll(async () => {
  t = await createTestApp()
})
afterAll(async () => t?.close())

const pg = () => t.database.kind === 'postgres'
const storeOf = (): JobStore =>
  pg() ? new PgJobStore(t.database.db, LEASE, (err) => errors.push(err)) : new MemoryJobStore()

function jobOf(ownerId: number, cells: string[][]): Job {
  const rows = new SheetRows()
  cells.forEach((c, i) => rows.push({ rowNumber: i + 2, cells: c }))
  return newJob({
    id: randomUUID(),
    kind: 'user',
    mode: 'upsert',
    dryRun: false,
    ownerId,
    header: ['登录名*'],
    fileName: 'a.xlsx',
    rows,
  })
}

const collect = async (stream: Readable) => {
  const pieces: Buffer[] = []
  for await (const piece of stream) pieces.push(Buffer.from(piece as Buffer))
  return Buffer.concat(pieces)
}

describe('import job store', () => {
  it('runs one job at a time, answers its counts to its owner only, and keeps its result', async () => {
    const store = storeOf()
    const job = jobOf(1, [['a'], ['b']])
    await store.begin(job)
    await expect(store.begin(jobOf(1, [['c']]))).rejects.toMatchObject({
      status: 409,
      message: MSG.importBusy,
    })
    await expect(store.view(job.id, 2)).rejects.toMatchObject({ status: 404, message: MSG.importJobNotFound })
    await expect(store.result(job.id, 1)).rejects.toMatchObject({
      status: 409,
      message: MSG.importJobRunning,
    })

    const counts = { done: 2, inserted: 1, updated: 0, unchanged: 0, failed: 1 }
    await t.database.db.transaction((tx) => store.progress(tx, job, counts))
    Object.assign(job, counts, { status: 'done' })
    job.results = [{ ok: 'inserted' }, { failed: '不行' }]
    await store.finish(job)
    expect(await store.view(job.id, 1)).toMatchObject({ status: 'done', ...counts, msg: null })
    const rows = await sheetRows(await collect(await store.result(job.id, 1)))
    expect(rows.get(1)).toEqual(['登录名*', '结果', '原因'])
    expect(rows.get(2)).toEqual(['a', MSG.importRowInserted])
    expect(rows.get(3)).toEqual(['b', MSG.importRowFailed, '不行'])

    // the next job may start once the first has ended
    const next = jobOf(1, [['d']])
    await store.begin(next)
    next.status = 'done'
    await store.finish(next)
  })

  it.runIf(!!process.env.TEST_DATABASE_URL)(
    'PostgreSQL: a job whose lease runs out is interrupted with its committed counts, and no longer blocks',
    async () => {
      const counts = { done: 2, inserted: 2, updated: 0, unchanged: 0, failed: 0 }
      // the heartbeat keeps a job alive past the lease
      const alive = new PgJobStore(t.database.db, LEASE, (err) => errors.push(err))
      const kept = jobOf(1, [['a'], ['b'], ['c']])
      await alive.begin(kept)
      await t.database.db.transaction((tx) => alive.progress(tx, kept, counts))
      await new Promise((r) => setTimeout(r, 1000))
      expect((await alive.view(kept.id, 1)).status).toBe('running')
      kept.status = 'done'
      await alive.finish(kept)

      // an instance that stops: no heartbeat (the stopped instance's would come only in an hour, so
      // none renews the lease between the lease's end below and the look), no finish
      const store = new PgJobStore(t.database.db, { ...LEASE, heartbeatSeconds: 3600 }, (err) =>
        errors.push(err),
      )
      const job = jobOf(1, [['a'], ['b'], ['c']])
      await store.begin(job)
      await t.database.db.transaction((tx) => store.progress(tx, job, counts))
      await t.db.execute(
        sql`update import_jobs set lease_until = now() - interval '1 second' where id = ${job.id}`,
      )
      const other = new PgJobStore(t.database.db, LEASE, (err) => errors.push(err))
      expect(await other.view(job.id, 1)).toMatchObject({
        status: 'interrupted',
        ...counts,
        msg: MSG.importInstanceLost,
      })
      await expect(other.result(job.id, 1)).rejects.toMatchObject({
        status: 409,
        message: MSG.importInstanceLost,
      })
      // the stalled instance's next batch finds the job taken, and its end changes nothing
      await expect(
        t.database.db.transaction((tx) => store.progress(tx, job, { ...counts, done: 3, inserted: 3 })),
      ).rejects.toThrow()
      job.status = 'done'
      await store.finish(job)
      expect((await other.view(job.id, 1)).status).toBe('interrupted')

      const next = jobOf(1, [['d']])
      await other.begin(next)
      next.status = 'done'
      await other.finish(next)
      expect((await other.view(next.id, 1)).status).toBe('done')
    },
  )
})

describe('file store', () => {
  it('keeps bytes of several pieces whole, streams them back, and removes them', async () => {
    const store = fileStoreFor(t.database, t.config.dataDir)
    const bytes = randomBytes(2 * CHUNK_BYTES + 1234)
    const name = randomBytes(16).toString('hex')
    expect(await store.write(name, Readable.from([bytes.subarray(0, 1000), bytes.subarray(1000)]))).toBe(
      bytes.length,
    )
    const opened = await store.open(name)
    expect(opened?.size).toBe(bytes.length)
    expect((await collect(opened!.stream)).equals(bytes)).toBe(true)
    if (pg()) {
      const pieces = await queryRows<{ n: number }>(
        t.db,
        sql`select count(*)::int as n from file_chunks where storage_name = ${name}`,
      )
      expect(pieces[0].n).toBe(3)
      expect(fs.existsSync(path.join(filesDir(t.config.dataDir), name))).toBe(false)
    }
    expect(await store.remove([name])).toBe(1)
    expect(await store.open(name)).toBeNull()

    const empty = randomBytes(16).toString('hex')
    expect(await store.write(empty, Readable.from([]))).toBe(0)
    expect((await store.open(empty))?.size).toBe(0)
    await store.remove([empty])
  })

  it.runIf(!!process.env.TEST_DATABASE_URL)(
    'PostgreSQL: files left under DATA_DIR/files move in at start, once, and the originals stay',
    async () => {
      const dir = filesDir(t.config.dataDir)
      fs.mkdirSync(dir, { recursive: true })
      const name = randomBytes(16).toString('hex')
      const bytes = randomBytes(CHUNK_BYTES + 10)
      fs.writeFileSync(path.join(dir, name), bytes)
      fs.writeFileSync(path.join(dir, 'no-row'), 'x')
      await t.db.insert(files).values({
        fileName: '旧文件.bin',
        storageName: name,
        size: bytes.length,
        expireTime: new Date(Date.now() + 3600_000),
      })
      expect(await moveFilesIntoDatabase(t.database.db, t.config.dataDir)).toEqual({ moved: 1, missing: 0 })
      expect(await moveFilesIntoDatabase(t.database.db, t.config.dataDir)).toEqual({ moved: 0, missing: 0 })
      const opened = await fileStoreFor(t.database, t.config.dataDir).open(name)
      expect((await collect(opened!.stream)).equals(bytes)).toBe(true)
      expect(fs.existsSync(path.join(dir, name))).toBe(true)
      expect(await fileStoreFor(t.database, t.config.dataDir).open('no-row')).toBeNull()
    },
  )
})
