import { randomUUID } from 'node:crypto'
import { MSG, importDuplicateRows, type ImportJob, type ImportMode } from '@amg/contract'
import type { Db, Tx } from '../../db/connection'
import { runInTransaction } from '../../db/request-transaction'
import type { ChangeWatch } from '../../cache/change-watch'
import { writeJobRow, type JobOrigin } from '../../audit/operation-log'
import { AppError, conflict, notFound } from '../../lib/errors'
import { HeapBound } from '../../lib/heap-bound'
import type { SheetRow, SheetRows } from '../../lib/sheet-rows'

/**
 * Import jobs (DESIGN.md §15), kept in this instance's memory: one runs at a time per instance, and
 * a finished job's rows and results stay for an hour (the last few jobs) so its result can be
 * downloaded. A restart forgets them; what a job committed stays committed.
 */

/** Rows per transaction: each batch commits with its operation-log row. */
export const BATCH_ROWS = 1000
const KEEP_MS = 60 * 60 * 1000
const KEEP_JOBS = 5

export type JobKind = ImportJob['kind']
export type RowOutcome = 'inserted' | 'updated' | 'unchanged'

export interface Job extends ImportJob {
  id: string
  ownerId: number
  header: readonly string[]
  rows: SheetRows
  /** per row: its outcome, or the reason it failed */
  results: RowResult[]
  finishedAt: number | null
}

/** One row's result: its outcome, or the reason it failed. */
export type RowResult = { ok: RowOutcome } | { failed: string }

/** One row, in its own savepoint `tx`. */
export type RowHandler = (tx: Tx, row: SheetRow) => Promise<RowOutcome>

/** Runs a row handler in a savepoint of the batch: a refusal rolls back that row alone. */
export type InSavepoint = (handle: RowHandler, row: SheetRow) => Promise<RowResult>

/**
 * What a job's rows run through (made when the job starts): the rows of one batch not yet decided,
 * in file order, in the batch's transaction; one result each, in the same order.
 */
export type BatchHandler = (
  tx: Tx,
  rows: readonly SheetRow[],
  inSavepoint: InSavepoint,
) => Promise<RowResult[]>

/** A batch handler that takes the rows one by one, each in its own savepoint. */
export const oneByOne =
  (handle: RowHandler): BatchHandler =>
  async (_tx, rows, inSavepoint) => {
    const results: RowResult[] = []
    // one after another: they share the batch's connection
    for (const row of rows) results.push(await inSavepoint(handle, row))
    return results
  }

export interface JobStart {
  kind: JobKind
  mode: ImportMode
  dryRun: boolean
  ownerId: number
  header: readonly string[]
  rows: SheetRows
  /** the key of a row whose duplicates within the file fail both rows (null: no key) */
  keyOf: (row: SheetRow) => string | null
  /** the name of the key in the duplicate message ('登录名', '部门全称') */
  keyName: string
}

/** Thrown to roll a dry run's batch back. */
class DryRun extends Error {}

const LOG_SUMMARY: Record<JobKind, string> = { user: '导入用户', org: '导入部门' }

export class ImportJobs {
  private readonly jobs = new Map<string, Job>()
  private running: Job | null = null

  constructor(
    private readonly db: Db,
    private readonly changes: ChangeWatch,
    private readonly onError: (err: Error) => void,
  ) {}

  /** 409 when a job is running; else the job, registered, its duplicates already failed. */
  create(start: JobStart): Job {
    if (this.running) throw conflict(MSG.importBusy)
    this.forgetOld()
    const job: Job = {
      id: randomUUID(),
      kind: start.kind,
      mode: start.mode,
      dryRun: start.dryRun,
      ownerId: start.ownerId,
      status: 'running',
      total: start.rows.length,
      done: 0,
      inserted: 0,
      updated: 0,
      unchanged: 0,
      failed: 0,
      msg: null,
      header: start.header,
      rows: start.rows,
      results: new Array(start.rows.length),
      finishedAt: null,
    }
    markDuplicates(job, start.keyOf, start.keyName)
    this.jobs.set(job.id, job)
    this.running = job
    return job
  }

  /** The job as its starter sees it; another user's job is as unknown as a missing one. */
  get(jobId: string, userId: number): Job {
    const job = this.jobs.get(jobId)
    if (!job || job.ownerId !== userId) throw notFound(MSG.importJobNotFound)
    return job
  }

  /**
   * Runs the rows in batches of about 1,000, each in one transaction with its operation-log row; the
   * handler decides each row alone (a refused row leaves the others), set-wise or one by one. A dry
   * run runs the very same code and rolls each batch back.
   */
  async run(job: Job, origin: JobOrigin, prepare: () => Promise<BatchHandler>): Promise<void> {
    try {
      // read once the request that started the job has committed (PGlite has one connection)
      const handle = await prepare()
      const heap = new HeapBound()
      for (let start = 0; start < job.rows.length; start += BATCH_ROWS) {
        const end = Math.min(start + BATCH_ROWS, job.rows.length)
        const counts = { inserted: 0, updated: 0, unchanged: 0, failed: 0 }
        const batch = () =>
          this.db.transaction((tx) =>
            // the batch's transaction is the database of everything it calls, as a request's is
            runInTransaction(tx, async () => {
              // rows a duplicate within the file already failed are not run
              const pending: number[] = []
              for (let i = start; i < end; i++) if (!job.results[i]) pending.push(i)
              const results = await handle(
                tx,
                pending.map((i) => job.rows.at(i)),
                (handleRow, row) => this.runRow(tx, row, handleRow),
              )
              pending.forEach((i, k) => (job.results[i] = results[k]))
              for (let i = start; i < end; i++) {
                const result = job.results[i]
                if ('ok' in result) counts[result.ok]++
                else counts.failed++
              }
              job.done = end
              if (job.dryRun) throw new DryRun()
              await writeJobRow(tx, origin, {
                summary: LOG_SUMMARY[job.kind],
                resourceId: job.id,
                msg: `第 ${job.rows.at(start).rowNumber}–${job.rows.at(end - 1).rowNumber} 行：新建 ${counts.inserted}，修改 ${counts.updated}，未变更 ${counts.unchanged}，失败 ${counts.failed}`,
              })
            }),
          )
        await batch().catch((err) => {
          if (!(err instanceof DryRun)) throw err
        })
        job.inserted += counts.inserted
        job.updated += counts.updated
        job.unchanged += counts.unchanged
        job.failed += counts.failed
        if (!job.dryRun) await this.changes.refreshIfChanged()
        heap.collectIfGrown()
      }
      job.status = 'done'
    } catch (err) {
      // a batch that cannot commit (the database went away) ends the job; what committed stays
      this.onError(err as Error)
      job.status = 'failed'
      job.msg = MSG.serverError
      this.changes.dropAll()
    } finally {
      job.finishedAt = Date.now()
      this.running = null
    }
  }

  private async runRow(tx: Tx, row: SheetRow, handle: RowHandler): Promise<RowResult> {
    try {
      return { ok: await tx.transaction((rowTx) => handle(rowTx, row)) }
    } catch (err) {
      if (err instanceof AppError) return { failed: err.message }
      this.onError(err as Error)
      return { failed: MSG.serverError }
    }
  }

  private forgetOld() {
    const now = Date.now()
    const finished = [...this.jobs.values()].filter((j) => j.finishedAt !== null)
    finished.forEach((job, i) => {
      if (now - job.finishedAt! > KEEP_MS || i < finished.length - KEEP_JOBS + 1) this.jobs.delete(job.id)
    })
  }
}

/**
 * A key used twice in the file fails both rows, each naming the other's row number (the
 * spreadsheet's own numbers): which of the two was meant cannot be told.
 */
function markDuplicates(job: Job, keyOf: (row: SheetRow) => string | null, keyName: string) {
  const first = new Map<string, { index: number; rowNumber: number }>()
  let index = 0
  for (const row of job.rows) {
    const i = index++
    const key = keyOf(row)
    if (key === null || key === '') continue
    const earlier = first.get(key)
    if (earlier === undefined) {
      first.set(key, { index: i, rowNumber: row.rowNumber })
      continue
    }
    const message = importDuplicateRows(keyName, key, earlier.rowNumber, row.rowNumber)
    job.results[earlier.index] ??= { failed: message }
    job.results[i] = { failed: message }
  }
}

/** The job as GET /import/job answers it. */
export const jobView = (job: Job): ImportJob => ({
  status: job.status,
  kind: job.kind,
  mode: job.mode,
  dryRun: job.dryRun,
  total: job.total,
  done: job.done,
  inserted: job.inserted,
  updated: job.updated,
  unchanged: job.unchanged,
  failed: job.failed,
  msg: job.msg,
})
