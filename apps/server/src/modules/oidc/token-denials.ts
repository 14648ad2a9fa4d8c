import { lt, sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/connection'
import { machineTokenDenials } from '../../db/schema'
import { clientDenialKey, tokenDenialKey } from '../../cache/machine-token-denials'

/**
 * Writing the denials of machine tokens (DESIGN.md §19; held by cache/machine-token-denials.ts). A JWT
 * is checked by its signature alone, so a token cannot be taken back by deleting it: it is named here
 * until it would have expired anyway.
 */

/** A denial of every token a client was given up to now: its sign-on turned off, changed or deleted. */
export async function denyClientTokens(tx: DbOrTx, clientId: string, tokenTtlSeconds: number) {
  const before = new Date()
  // a minute beyond the longest life a token given until now can have
  const expiresAt = new Date(before.getTime() + (tokenTtlSeconds + 60) * 1000)
  await write(tx, clientDenialKey(clientId), before, expiresAt)
  return before.getTime()
}

/** A denial of one token (revoked), kept until it expires. */
export async function denyToken(tx: DbOrTx, jti: string, expiresAt: number) {
  const before = new Date()
  await write(tx, tokenDenialKey(jti), before, new Date(expiresAt + 60_000))
  return before.getTime()
}

async function write(tx: DbOrTx, key: string, before: Date, expiresAt: Date) {
  // denials no token can need any more go as new ones come: the table stays as small as the tokens alive
  await tx.delete(machineTokenDenials).where(lt(machineTokenDenials.expiresAt, sql`now()`))
  await tx
    .insert(machineTokenDenials)
    .values({ key, before, expiresAt })
    .onConflictDoUpdate({ target: machineTokenDenials.key, set: { before, expiresAt } })
}
