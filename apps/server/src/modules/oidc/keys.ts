import { generateKeyPairSync, randomUUID } from 'node:crypto'
import { asc, desc, inArray } from 'drizzle-orm'
import type { Db } from '../../db/connection'
import { oidcKeys } from '../../db/schema'
import type { SecretBox } from '../../lib/secret-box'

/** How many keys the JWKS keeps (three pairs): the signing ones and those before them, for tokens still in use. */
const KEEP_KEYS = 6

export type PrivateJwk = Record<string, unknown> & { kid: string }

/**
 * A pair of signing keys: RS256 for ID tokens (what every relying party accepts by default) and ES256
 * for machine tokens, which are made and checked on every client-credentials call and sign about
 * twenty times faster.
 */
function newKeys(): PrivateJwk[] {
  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' })
  const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' })
  return [
    { ...(rsa as Record<string, unknown>), kid: randomUUID(), alg: 'RS256', use: 'sig' },
    { ...(ec as Record<string, unknown>), kid: randomUUID(), alg: 'ES256', use: 'sig' },
  ]
}

const sealAll = (box: SecretBox, keys: PrivateJwk[]) =>
  keys.map((key) => ({ kid: key.kid, jwkEnc: box.seal(JSON.stringify(key)) }))

/**
 * The provider's signing keys (DESIGN.md §16), newest first: the newest signs, the older ones still
 * verify. Made at first start and kept in the database, so every instance signs with the same key.
 */
export async function loadSigningKeys(db: Db, box: SecretBox): Promise<PrivateJwk[]> {
  let rows = await db.select().from(oidcKeys).orderBy(desc(oidcKeys.id))
  if (rows.length === 0) {
    // two instances starting at once: the unique kids keep both pairs, and both load the same newest
    await db.insert(oidcKeys).values(sealAll(box, newKeys()))
    rows = await db.select().from(oidcKeys).orderBy(desc(oidcKeys.id))
  }
  return rows.map((r) => JSON.parse(box.open(r.jwkEnc)) as PrivateJwk)
}

/** Makes a new pair of signing keys; keys beyond the last few are dropped. Answers the new RS256 key's id. */
export async function rotateSigningKey(db: Db, box: SecretBox): Promise<string> {
  const keys = newKeys()
  await db.transaction(async (tx) => {
    await tx.insert(oidcKeys).values(sealAll(box, keys))
    const all = await tx.select({ id: oidcKeys.id }).from(oidcKeys).orderBy(asc(oidcKeys.id))
    const old = all.slice(0, Math.max(0, all.length - KEEP_KEYS)).map((r) => r.id)
    if (old.length) await tx.delete(oidcKeys).where(inArray(oidcKeys.id, old))
  })
  return keys[0].kid
}
