import type { FastifyInstance } from 'fastify'
import { loggableError } from '../../lib/error-handler'
import { MemoryJobStore, type JobStore } from './job-store'
import { PgJobStore } from './pg-job-store'

const stores = new WeakMap<object, JobStore>()

/**
 * The app's one job store (DESIGN.md §15, §19), shared by the import and the directory sync
 * (§22): one job at a time for the company, whichever kind, and GET /import/job answers both.
 */
export function jobStoreOf(app: FastifyInstance): JobStore {
  const { database, config } = app.ctx
  const known = stores.get(database)
  if (known) return known
  const onError = (err: Error) => app.log.error({ err: loggableError(err) }, 'job failed unexpectedly')
  const store =
    database.kind === 'postgres'
      ? new PgJobStore(
          database.db,
          { leaseSeconds: config.importLeaseSeconds, heartbeatSeconds: config.importHeartbeatSeconds },
          onError,
        )
      : new MemoryJobStore()
  stores.set(database, store)
  return store
}
