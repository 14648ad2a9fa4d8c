import type { Database } from '../db/connection'
import { inRequestTransaction } from '../audit/request-transaction'

/**
 * When a value read from the database may be kept in memory (the session, access and list caches):
 * nothing that could make it stale was heard between the start of the read and now, every change is
 * heard at all (a PostgreSQL listener may be reconnecting), and it was not read inside a request's
 * transaction, which may still roll back.
 */
export class KeepGuard {
  private generation = 0

  constructor(private readonly database: Pick<Database, 'hearsEveryChange'>) {}

  /** Something changed: what was read before now may be stale. */
  changed(): void {
    this.generation++
  }

  /** Taken before a read, and handed to `mayKeep` after it. */
  token(): number {
    return this.generation
  }

  mayKeep(token: number): boolean {
    return token === this.generation && this.database.hearsEveryChange() && !inRequestTransaction()
  }
}
