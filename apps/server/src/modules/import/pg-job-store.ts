import { sql } from 'drizzle-orm'
import { MSG, type ImportJob } from '@amg/contract'
import { queryRows, type Db, type DbOrTx } from '../../db/connection'
import { chunkStream, inChunks } from '../../db/chunks'
import { conflict, notFound } from '../../lib/errors'
import { violatedUniqueIndex } from '../../lib/unique-violation'
import { streamWorkbook } from '../../lib/workbook'
import { jobView, resultHeader, resultRows, type Counts, type Job } from './job-parts'
import type { JobStore } from './job-store'

export interface Lease {
  /** how long a job stays its instance's without a heartbeat */
  leaseSeconds: number
  /** how often the running instance renews it */
  heartbeatSeconds: number
}

/** Thrown into a batch whose job another instance has marked interrupted: the batch rolls back. */
export class JobTakenOver extends Error {}

const KEEP = sql`interval '1 hour'`
/** A finished job is kept this long for its result, and at most this many finished jobs in all. */
const KEEP_JOBS = 5

/** A job as its row holds it (the counts and status under the names GET /import/job answers). */
type JobRow = Omit<ImportJob, 'dryRun'> & { dry_run: boolean }

/**
 * Import jobs in PostgreSQL (DESIGN.md §19), for instances sharing one database: any instance answers
 * GET /import/job and /import/result, and at most one job runs for the whole company (a partial unique
 * index). The instance running a job renews its lease every heartbeat; a job whose lease has run out
 * belonged to an instance that stopped, and whoever looks at it next marks it interrupted, with the
 * counts its committed batches left (each batch writes them in its own transaction).
 */
export class PgJobStore implements JobStore {
  private readonly heartbeats = new Map<string, NodeJS.Timeout>()

  constructor(
    private readonly db: Db,
    private readonly lease: Lease,
    private readonly onError: (err: Error) => void,
  ) {}

  private leaseEnd() {
    return sql`now() + ${this.lease.leaseSeconds} * interval '1 second'`
  }

  /** Jobs (all, or `jobId`) whose instance stopped renewing their lease: interrupted from now on. */
  private async markLost(jobId?: string) {
    await this.db.execute(sql`
      update import_jobs set status = 'interrupted', msg = ${MSG.importInstanceLost}, finished_at = now()
      where status = 'running' and lease_until < now() ${jobId ? sql`and id = ${jobId}` : sql``}`)
  }

  async begin(job: Job) {
    await this.markLost()
    await this.db.execute(sql`
      delete from import_jobs where finished_at < now() - ${KEEP} or id in (
        select id from import_jobs where finished_at is not null
        order by finished_at desc offset ${KEEP_JOBS - 1})`)
    try {
      await this.db.execute(sql`
        insert into import_jobs (id, kind, mode, dry_run, owner_id, file_name, status, total, lease_until)
        values (${job.id}, ${job.kind}, ${job.mode}, ${job.dryRun}, ${job.ownerId}, ${job.fileName},
          'running', ${job.total}, ${this.leaseEnd()})`)
    } catch (err) {
      if (violatedUniqueIndex(err) === 'import_jobs_one_running') throw conflict(MSG.importBusy)
      throw err
    }
    const beat = setInterval(() => {
      this.db
        .execute(
          sql`update import_jobs set lease_until = ${this.leaseEnd()} where id = ${job.id} and status = 'running'`,
        )
        .catch((err) => this.onError(err as Error))
    }, this.lease.heartbeatSeconds * 1000)
    beat.unref()
    this.heartbeats.set(job.id, beat)
  }

  async progress(db: DbOrTx, job: Job, counts: Counts & { done: number }) {
    const [still] = await queryRows<{ id: string }>(
      db,
      sql`update import_jobs set done = ${counts.done}, inserted = ${counts.inserted},
        updated = ${counts.updated}, unchanged = ${counts.unchanged}, failed = ${counts.failed},
        lease_until = ${this.leaseEnd()}
      where id = ${job.id} and status = 'running' returning id`,
    )
    if (!still) throw new JobTakenOver()
  }

  async finish(job: Job) {
    clearInterval(this.heartbeats.get(job.id))
    this.heartbeats.delete(job.id)
    try {
      // rendered before the transaction: a large result takes seconds, no connection waits for it
      const pieces: Buffer[] = []
      for await (const piece of inChunks(streamWorkbook('导入结果', resultHeader(job), resultRows(job))))
        pieces.push(piece)
      await this.db.transaction(async (tx) => {
        const [mine] = await queryRows<{ id: string }>(
          tx,
          sql`update import_jobs set status = ${job.status}, msg = ${job.msg}, finished_at = now(),
            diff = ${job.diff ? JSON.stringify(job.diff) : null}::jsonb
            where id = ${job.id} and status = 'running' returning id`,
        )
        // marked interrupted meanwhile (this instance stalled past its lease): that stays its end
        if (!mine) return
        for (const [seq, data] of pieces.entries())
          await tx.execute(
            sql`insert into import_job_chunks (job_id, seq, data) values (${job.id}, ${seq}, ${data})`,
          )
      })
    } catch (err) {
      // the job stays running until its lease runs out, then reads as interrupted
      this.onError(err as Error)
    }
  }

  async view(jobId: string, userId: number): Promise<ImportJob> {
    const job = await this.row(jobId, userId)
    return jobView({ ...job, dryRun: job.dry_run })
  }

  async result(jobId: string, userId: number) {
    const job = await this.row(jobId, userId)
    if (job.status === 'running') throw conflict(MSG.importJobRunning)
    if (job.status === 'interrupted') throw conflict(job.msg ?? MSG.importInstanceLost)
    return chunkStream(async (seq) => {
      const [piece] = await queryRows<{ data: Buffer }>(
        this.db,
        sql`select data from import_job_chunks where job_id = ${jobId} and seq = ${seq}`,
      )
      return piece?.data ?? null
    })
  }

  private async row(jobId: string, userId: number): Promise<JobRow> {
    await this.markLost(jobId)
    const [job] = await queryRows<JobRow>(
      this.db,
      sql`select status, kind, mode, dry_run, total, done, inserted, updated, unchanged, failed, msg, diff
        from import_jobs where id = ${jobId} and owner_id = ${userId}`,
    )
    if (!job) throw notFound(MSG.importJobNotFound)
    return job
  }
}
