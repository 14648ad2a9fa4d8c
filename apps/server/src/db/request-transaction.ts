import { AsyncLocalStorage } from 'node:async_hooks'
import type { Db, Tx } from './connection'

/**
 * The request-scoped transaction: a write request's handler runs inside one database transaction,
 * and every module's `db` (the app context's) resolves to that transaction while it runs. So a
 * change and its operation-log row commit together, or neither does, without any module taking
 * part. A module's own `db.transaction(...)` simply runs inside it: any error fails the whole
 * request anyway, so a savepoint would only cost two round trips.
 */
const current = new AsyncLocalStorage<Tx>()

/** How many `runInTransaction` calls are under way. */
let running = 0

/**
 * Runs `work` with `tx` as the database of everything it calls.
 *
 * While an AsyncLocalStorage is enabled, Node 20 runs async hooks on every promise and every socket,
 * request and timer: measured, a fifth of a small read's cost, paid by every request once the first
 * write had run. So the storage is enabled only while a write runs: the last one to finish disables
 * it (and `run` enables it again). What a finished write left running, if anything, sees no
 * transaction, which is right: that transaction is over.
 */
export async function runInTransaction<T>(tx: Tx, work: () => Promise<T>): Promise<T> {
  running++
  try {
    return await current.run(tx, work)
  } finally {
    if (--running === 0) current.disable()
  }
}

/** The database as modules see it: the running request's transaction when there is one. */
export function requestScopedDb(db: Db): Db {
  return new Proxy(db, {
    get(target, prop) {
      const tx = current.getStore()
      if (tx && prop === 'transaction') return <T>(work: (inner: Tx) => Promise<T>) => work(tx)
      const source = (tx ?? target) as Db
      const value = Reflect.get(source, prop, source) as unknown
      return typeof value === 'function' ? value.bind(source) : value
    },
  })
}

/**
 * Whether a request's transaction is open here: what is read inside it may still roll back, so
 * caches keep nothing read there.
 */
export const inRequestTransaction = (): boolean => current.getStore() !== undefined
