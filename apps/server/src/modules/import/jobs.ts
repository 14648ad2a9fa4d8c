import { randomUUID } from 'node:crypto'
import { MSG } from '@amg/contract'
import type { Db, Tx } from '../../db/connection'
import { runInTransaction } from '../../db/request-transaction'
import type { ChangeWatch } from '../../cache/change-watch'
import { writeJobRow, type JobOrigin } from '../../audit/operation-log'
import { AppError } from '../../lib/errors'
import { isDatabaseUnavailable } from '../../db/unavailable'
import { HeapBound } from '../../lib/heap-bound'
import type { SheetRow } from '../../lib/sheet-rows'
import {
  countOf,
  fileText,
  LOG_SUMMARY,
  markDuplicates,
  newJob,
  type Counts,
  type Job,
  type JobStart,
  type RowOutcome,
  type RowResult,
} from './job-parts'
import type { JobStore } from './job-store'

/**
 * Running import jobs (DESIGN.md §15): rows in batches, each batch in one transaction with its
 * operation-log row. Where a job's status, counts and result are kept, and the rule of one import at
 * a time, is the job store's (job-store.ts: this process's memory; pg-job-store.ts: PostgreSQL).
 */

export type { Job, JobKind, JobStart, RowOutcome, RowResult } from './job-parts'
export { importLogSummary, importStartMsg } from './job-parts'

/** Rows per transaction: each batch commits with its operation-log row. */
export const BATCH_ROWS = 1000
/** A batch whose database connection was lost is tried once more after this wait (a restart, a failover). */
export const BATCH_RETRY_WAIT_MS = 2000

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

/** Thrown to roll a dry run's batch back. */
class DryRun extends Error {}

export class ImportJobs {
  constructor(
    private readonly db: Db,
    private readonly store: JobStore,
    private readonly changes: ChangeWatch,
    private readonly onError: (err: Error) => void,
    private readonly retryWaitMs = BATCH_RETRY_WAIT_MS,
  ) {}

  /** 409 when a job is running; else the job, registered, its duplicates already failed. */
  async create(start: JobStart): Promise<Job> {
    const job = newJob({ ...start, id: randomUUID() })
    markDuplicates(job, start.keyOf, start.keyName)
    await this.store.begin(job)
    return job
  }

  view(jobId: string, userId: number) {
    return this.store.view(jobId, userId)
  }

  result(jobId: string, userId: number) {
    return this.store.result(jobId, userId)
  }

  /**
   * Runs the rows in batches of about 1,000, each in one transaction with its operation-log row; the
   * handler decides each row alone (a refused row leaves the others), set-wise or one by one. A dry
   * run runs the very same code and rolls each batch back. A batch's results, counts and progress are
   * the job's only once it has committed, so they always equal what is in the database.
   *
   * A lost database connection ends the batch, not a row: the batch rolls back and is tried once more
   * after a short wait. Lost again, the job ends with 503's message; that batch's rows and the ones
   * after it are reported as not processed, and the same file imported again with upsert completes it.
   */
  async run(job: Job, origin: JobOrigin, prepare: () => Promise<BatchHandler>): Promise<void> {
    let committed = 0
    try {
      // read once the request that started the job has committed (PGlite has one connection)
      const handle = await prepare()
      const heap = new HeapBound()
      for (let start = 0; start < job.rows.length; start += BATCH_ROWS) {
        const end = Math.min(start + BATCH_ROWS, job.rows.length)
        const batch = () => this.runBatch(job, origin, handle, start, end)
        const results = await batch().catch(async (err) => {
          if (!isDatabaseUnavailable(err)) throw err
          await new Promise((resolve) => setTimeout(resolve, this.retryWaitMs))
          return batch()
        })
        results.forEach((result, k) => (job.results[start + k] = result))
        const counts = countOf(results)
        job.inserted += counts.inserted
        job.updated += counts.updated
        job.unchanged += counts.unchanged
        job.failed += counts.failed
        job.done = committed = end
        if (!job.dryRun) await this.changes.refreshIfChanged()
        heap.collectIfGrown()
      }
      job.status = 'done'
    } catch (err) {
      // one line for the job, whatever the number of rows it leaves
      // (a job another instance took for lost ends here too: the store keeps that end)
      this.onError(err as Error)
      const lost = isDatabaseUnavailable(err)
      job.status = 'failed'
      job.msg = lost ? MSG.importInterrupted : MSG.serverError
      const reason = lost ? MSG.importConnectionLost : MSG.serverError
      for (let i = committed; i < job.rows.length; i++) job.results[i] = { notProcessed: reason }
      this.changes.dropAll()
    } finally {
      job.finishedAt = Date.now()
      await this.store.finish(job)
    }
  }

  /** One batch in its transaction: the results of rows `start`–`end`, once committed (or rolled back, dry). */
  private async runBatch(
    job: Job,
    origin: JobOrigin,
    handle: BatchHandler,
    start: number,
    end: number,
  ): Promise<RowResult[]> {
    // rows a duplicate within the file already failed are not run
    const results = job.results.slice(start, end)
    const pending: number[] = []
    for (let k = 0; k < end - start; k++) if (!results[k]) pending.push(k)
    await this.db
      .transaction((tx) =>
        // the batch's transaction is the database of everything it calls, as a request's is
        runInTransaction(tx, async () => {
          const decided = await handle(
            tx,
            pending.map((k) => job.rows.at(start + k)),
            (handleRow, row) => this.runRow(tx, row, handleRow),
          )
          pending.forEach((k, n) => (results[k] = decided[n]))
          if (job.dryRun) throw new DryRun()
          const counts = countOf(results)
          await this.store.progress(tx, job, countsAfter(job, counts, end))
          await writeJobRow(tx, origin, {
            summary: LOG_SUMMARY[job.kind],
            // about the records the batch changed (named from its staged rows), not the job's id
            resourceId: null,
            msg: `${fileText(job)} 第 ${job.rows.at(start).rowNumber}–${job.rows.at(end - 1).rowNumber} 行：新建 ${counts.inserted}，修改 ${counts.updated}，未变更 ${counts.unchanged}，失败 ${counts.failed}`,
          })
        }),
      )
      .catch((err) => {
        if (!(err instanceof DryRun)) throw err
      })
    if (job.dryRun) await this.store.progress(this.db, job, countsAfter(job, countOf(results), end))
    return results
  }

  private async runRow(tx: Tx, row: SheetRow, handle: RowHandler): Promise<RowResult> {
    try {
      return { ok: await tx.transaction((rowTx) => handle(rowTx, row)) }
    } catch (err) {
      if (err instanceof AppError) return { failed: err.message }
      // the batch's connection is gone: every row after this one would fail alike (run tries again)
      if (isDatabaseUnavailable(err)) throw err
      this.onError(err as Error)
      return { failed: MSG.serverError }
    }
  }
}

/** The job's counts once a batch with `counts` up to row `end` has committed. */
const countsAfter = (job: Job, counts: Counts, end: number) => ({
  done: end,
  inserted: job.inserted + counts.inserted,
  updated: job.updated + counts.updated,
  unchanged: job.unchanged + counts.unchanged,
  failed: job.failed + counts.failed,
})
