import type { Readable } from 'node:stream'
import { MSG, type ImportJob } from '@amg/contract'
import type { DbOrTx } from '../../db/connection'
import { conflict, notFound } from '../../lib/errors'
import { streamWorkbook } from '../../lib/workbook'
import { jobView, resultHeader, resultRows, type Counts, type Job } from './job-parts'

/**
 * Where import jobs are kept (DESIGN.md §15, §19): their status and counts for GET /import/job, their
 * result workbook for GET /import/result, and the rule of one import at a time. The embedded
 * database's single process keeps them in memory (MemoryJobStore); on PostgreSQL they live in the
 * database (PgJobStore), so any instance answers for a job and one import runs at a time for the
 * company, whichever instance it started on.
 */
export interface JobStore {
  /** Registers a job that is about to run; 409 (importBusy) while another one runs. */
  begin(job: Job): Promise<void>
  /**
   * The job's counts once a batch is decided, on `db`: the batch's own transaction, so what is stored
   * always equals what committed (a dry run's batch rolled back: the database itself). Throws when the
   * job is no longer this instance's to run (it was marked interrupted meanwhile): the batch rolls back.
   */
  progress(db: DbOrTx, job: Job, counts: Counts & { done: number }): Promise<void>
  /** The job has ended (done or failed, its results complete): its result is kept from now on. */
  finish(job: Job): Promise<void>
  /** The job as its starter sees it; another user's job is as unknown as a missing one. */
  view(jobId: string, userId: number): Promise<ImportJob>
  /** The result workbook of an ended job; 409 while it runs or when it has none. */
  result(jobId: string, userId: number): Promise<Readable>
}

const KEEP_MS = 60 * 60 * 1000
const KEEP_JOBS = 5

/**
 * One process's jobs in its memory: one runs at a time, and a finished job's rows and results stay
 * for an hour (the last few jobs) so its result can be downloaded. A restart forgets them; what a job
 * committed stays committed.
 */
export class MemoryJobStore implements JobStore {
  private readonly jobs = new Map<string, Job>()
  private running: Job | null = null

  async begin(job: Job) {
    if (this.running) throw conflict(MSG.importBusy)
    this.forgetOld()
    this.jobs.set(job.id, job)
    this.running = job
  }

  // the job object itself is what is kept: its counts are already the ones to answer
  async progress() {}

  async finish(job: Job) {
    job.finishedAt = Date.now()
    if (this.running === job) this.running = null
  }

  async view(jobId: string, userId: number) {
    return jobView(this.get(jobId, userId))
  }

  async result(jobId: string, userId: number) {
    const job = this.get(jobId, userId)
    if (job.status === 'running') throw conflict(MSG.importJobRunning)
    return streamWorkbook('导入结果', resultHeader(job), resultRows(job))
  }

  private get(jobId: string, userId: number): Job {
    const job = this.jobs.get(jobId)
    if (!job || job.ownerId !== userId) throw notFound(MSG.importJobNotFound)
    return job
  }

  private forgetOld() {
    const now = Date.now()
    const finished = [...this.jobs.values()].filter((j) => j.finishedAt !== null)
    finished.forEach((job, i) => {
      if (now - job.finishedAt! > KEEP_MS || i < finished.length - KEEP_JOBS + 1) this.jobs.delete(job.id)
    })
  }
}
