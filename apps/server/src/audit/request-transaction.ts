import { AsyncLocalStorage } from 'node:async_hooks'
import type { Db, Tx } from '../db/connection'

/**
 * The request-scoped transaction: a write request's handler runs inside one database transaction,
 * and every module's `db` (the app context's) resolves to that transaction while it runs. So a
 * change and its operation-log row commit together, or neither does, without any module taking
 * part; a module's own `db.transaction(...)` becomes a savepoint inside it.
 */
const current = new AsyncLocalStorage<Tx>()

/** Runs `work` with `tx` as the database of everything it calls. */
export const runInTransaction = <T>(tx: Tx, work: () => Promise<T>): Promise<T> => current.run(tx, work)

/** The database as modules see it: the running request's transaction when there is one. */
export function requestScopedDb(db: Db): Db {
  return new Proxy(db, {
    get(target, prop) {
      const source = (current.getStore() ?? target) as Db
      const value = Reflect.get(source, prop, source) as unknown
      return typeof value === 'function' ? value.bind(source) : value
    },
  })
}
