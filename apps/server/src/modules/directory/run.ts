import { randomUUID } from 'node:crypto'
import { desc, eq, sql } from 'drizzle-orm'
import { MSG, type DirectoryRun } from '@amg/contract'
import type { Db, DbOrTx } from '../../db/connection'
import { directorySyncRuns } from '../../db/schema'
import type { PowerGuard } from '../../auth/power'
import type { Caller } from '../../auth/user-scope'
import type { JobOrigin } from '../../audit/operation-log'
import type { ChangeWatch } from '../../cache/change-watch'
import { AppError, conflict } from '../../lib/errors'
import { SheetRows } from '../../lib/sheet-rows'
import { newJob, type Job } from '../import/job-parts'
import type { JobStore } from '../import/job-store'
import { readDirectory } from './entries'
import { makePlan, readStored } from './plan'
import { applyPlan } from './apply'
import type { LdapSettings } from './settings'

/**
 * A directory sync as a job (DESIGN.md §22): registered in the import's job store (one job at a time
 * for the company, on every instance; GET /import/job follows it), its diff kept with the job and in
 * the runs list. A dry run reads and plans, and writes nothing.
 */
export interface SyncStart {
  settings: LdapSettings
  caller: Caller
  origin: JobOrigin
  dryRun: boolean
  trigger: 'manual' | 'schedule'
}

export class DirectorySync {
  constructor(
    private readonly db: Db,
    private readonly store: JobStore,
    private readonly power: PowerGuard,
    private readonly changes: ChangeWatch,
    private readonly onError: (err: Error) => void,
  ) {}

  /** Registers the job (409 while another job runs) and starts it; answers its id at once. */
  /**
   * `db`: the starting request's transaction (the run's row commits with it), or the database.
   * `dueMinutes` (the schedule): looked at again once the job holds the one-job lock, since another
   * instance may have run the whole sync between this one's first look and its begin; not due: 409.
   */
  async start(db: DbOrTx, s: SyncStart, dueMinutes?: number): Promise<{ job: Job; done: Promise<void> }> {
    const job = newJob({
      id: randomUUID(),
      kind: 'directory',
      mode: 'upsert',
      dryRun: s.dryRun,
      ownerId: s.caller.id,
      fileName: 'LDAP',
      header: [],
      rows: new SheetRows(),
    })
    job.diff = null
    await this.store.begin(job)
    if (dueMinutes !== undefined && !(await this.due(dueMinutes).catch(() => false))) {
      job.status = 'done'
      job.finishedAt = Date.now()
      await this.store.finish(job)
      throw conflict(MSG.importBusy)
    }
    await db.insert(directorySyncRuns).values({
      id: job.id,
      dryRun: s.dryRun,
      trigger: s.trigger,
      status: 'running',
      operatorId: s.caller.id,
      operatorName: s.origin.operatorName,
    })
    return { job, done: this.run(job, s) }
  }

  private async run(job: Job, s: SyncStart) {
    try {
      const dir = await readDirectory(s.settings)
      const stored = await readStored(this.db, s.settings.defaultStationName)
      const plan = await makePlan(this.db, this.power, s.caller, dir, stored)
      const c = plan.diff.counts
      job.total = dir.users.length + dir.failed.length + dir.groups.length
      if (!s.dryRun) {
        await applyPlan(this.db, s.caller, s.origin, plan, s.settings.defaultStationName)
        await this.changes.refreshIfChanged()
      }
      job.done = job.total
      job.inserted = c.created
      job.updated = c.updated + c.moved + c.frozen
      job.unchanged = c.unchanged
      job.failed = c.failed
      job.diff = plan.diff
      job.status = 'done'
    } catch (err) {
      job.status = 'failed'
      if (err instanceof AppError) job.msg = err.message
      else {
        this.onError(err as Error)
        job.msg = MSG.serverError
      }
      this.changes.dropAll()
    } finally {
      job.finishedAt = Date.now()
      await this.store.finish(job)
      await this.db
        .update(directorySyncRuns)
        .set({ status: job.status, msg: job.msg, finishedAt: new Date(), diff: job.diff ?? null })
        .where(eq(directorySyncRuns.id, job.id))
        .catch((err) => this.onError(err as Error))
    }
  }

  /** The last runs, newest first (the settings page). */
  async runs(limit = 10): Promise<DirectoryRun[]> {
    const rows = await this.db
      .select()
      .from(directorySyncRuns)
      .orderBy(desc(directorySyncRuns.startedAt))
      .limit(limit)
    return rows.map((r) => ({
      jobId: r.id,
      dryRun: r.dryRun,
      trigger: r.trigger === 'schedule' ? 'schedule' : 'manual',
      status: r.status,
      msg: r.msg,
      operatorName: r.operatorName,
      startedAt: r.startedAt.toISOString(),
      finishedAt: r.finishedAt?.toISOString() ?? null,
      diff: (r.diff as DirectoryRun['diff']) ?? null,
    }))
  }

  /** Whether a scheduled run is due: no real run started within `minutes`. */
  async due(minutes: number): Promise<boolean> {
    const [row] = await this.db
      .select({ n: sql<number>`count(*)` })
      .from(directorySyncRuns)
      .where(sql`dry_run = false and started_at > now() - ${minutes} * interval '1 minute'`)
    return Number(row?.n ?? 0) === 0
  }
}
