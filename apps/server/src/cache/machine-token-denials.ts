import { gt, sql } from 'drizzle-orm'
import type { Db } from '../db/connection'
import { machineTokenDenials } from '../db/schema'
import { WatchedCache, type CacheHost } from './watched-cache'

/** What a machine token says of itself that a denial can name (DESIGN.md §19). */
export interface MachineTokenIdentity {
  jti: string
  clientId: string
  /** when it was issued, in milliseconds (`iat`, whole seconds) */
  issuedAt: number
}

/** The key of a denial of one token, and of every token of a client issued up to a moment. */
export const tokenDenialKey = (jti: string) => `jti:${jti}`
export const clientDenialKey = (clientId: string) => `client:${clientId}`

type Denials = ReadonlyMap<string, number>

function refuses(denials: Denials, token: MachineTokenIdentity): boolean {
  if (denials.has(tokenDenialKey(token.jti))) return true
  const before = denials.get(clientDenialKey(token.clientId))
  // `iat` is whole seconds: a token of the very second the client was turned off is refused too
  return before !== undefined && token.issuedAt <= before
}

/**
 * The machine tokens refused before they expire (revoked, or their client turned off or deleted), as
 * every instance holds them: all unexpired rows of `machine_token_denials`, a few at most (a token lives
 * five minutes), read once and kept until a row is written anywhere. Its trigger bumps the session
 * counter and NOTIFYs every instance (migration 0024), so a token revoked through one instance is
 * refused by every instance on its next use; while nothing changes, checking a token costs no query.
 */
export class MachineTokenDenials extends WatchedCache {
  private held: Denials | undefined

  constructor(
    private readonly db: Db,
    host: CacheHost,
  ) {
    super(host, 'session')
  }

  protected forget() {
    this.held = undefined
  }

  /** Whether the token is refused, from memory; undefined while nothing is held. */
  refusesFromMemory(token: MachineTokenIdentity): boolean | undefined {
    return this.held && this.current() ? refuses(this.held, token) : undefined
  }

  /** Whether the token is refused, read from the database when memory holds nothing. */
  async refuses(token: MachineTokenIdentity): Promise<boolean> {
    if (!this.current()) await this.whenCurrent()
    return refuses(this.held ?? (await this.load()), token)
  }

  /**
   * A denial this instance has just committed, held at once: its own next request must not wait for the
   * notification (which clears the cache on every instance, this one included).
   */
  remember(key: string, before: number) {
    if (this.held) this.held = new Map(this.held).set(key, before)
  }

  private async load(): Promise<Denials> {
    const token = this.token()
    const rows = await this.db
      .select({ key: machineTokenDenials.key, before: machineTokenDenials.before })
      .from(machineTokenDenials)
      .where(gt(machineTokenDenials.expiresAt, sql`now()`))
    const denials = new Map(rows.map((r) => [r.key, r.before.getTime()]))
    if (this.mayKeep(token)) this.held = denials
    return denials
  }
}
