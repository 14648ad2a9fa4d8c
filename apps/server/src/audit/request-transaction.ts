import { AsyncLocalStorage } from 'node:async_hooks'
import type { Db, Tx } from '../db/connection'

/**
 * The request-scoped transaction: a write request's handler runs inside one database transaction,
 * and every module's `db` (the app context's) resolves to that transaction while it runs. So a
 * change and its operation-log row commit together, or neither does, without any module taking
 * part. A module's own `db.transaction(...)` simply runs inside it: any error fails the whole
 * request anyway, so a savepoint would only cost two round trips.
 */
const current = new AsyncLocalStorage<Tx>()

/** Runs `work` with `tx` as the database of everything it calls. */
export const runInTransaction = <T>(tx: Tx, work: () => Promise<T>): Promise<T> => current.run(tx, work)

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
