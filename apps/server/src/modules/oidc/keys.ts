import { generateKeyPairSync, randomUUID } from 'node:crypto'
import { asc, desc, inArray } from 'drizzle-orm'
import type { Db } from '../../db/connection'
import { oidcKeys } from '../../db/schema'
import type { SecretBox } from '../../lib/secret-box'

/** How many keys the JWKS keeps: the signing one and those before it, for tokens still in use. */
const KEEP_KEYS = 3

export type PrivateJwk = Record<string, unknown> & { kid: string }

function newKey(): PrivateJwk {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
  const jwk = privateKey.export({ format: 'jwk' }) as Record<string, unknown>
  return { ...jwk, kid: randomUUID(), alg: 'RS256', use: 'sig' }
}

/**
 * The provider's signing keys (DESIGN.md §16), newest first: the newest signs, the older ones still
 * verify. Made at first start and kept in the database, so every instance signs with the same key.
 */
export async function loadSigningKeys(db: Db, box: SecretBox): Promise<PrivateJwk[]> {
  let rows = await db.select().from(oidcKeys).orderBy(desc(oidcKeys.id))
  if (rows.length === 0) {
    const key = newKey()
    // two instances starting at once: the unique kid keeps both, and both load the same newest key
    await db.insert(oidcKeys).values({ kid: key.kid, jwkEnc: box.seal(JSON.stringify(key)) })
    rows = await db.select().from(oidcKeys).orderBy(desc(oidcKeys.id))
  }
  return rows.map((r) => JSON.parse(box.open(r.jwkEnc)) as PrivateJwk)
}

/** Makes a new signing key; keys beyond the last few are dropped. Answers the new key's id. */
export async function rotateSigningKey(db: Db, box: SecretBox): Promise<string> {
  const key = newKey()
  await db.transaction(async (tx) => {
    await tx.insert(oidcKeys).values({ kid: key.kid, jwkEnc: box.seal(JSON.stringify(key)) })
    const all = await tx.select({ id: oidcKeys.id }).from(oidcKeys).orderBy(asc(oidcKeys.id))
    const old = all.slice(0, Math.max(0, all.length - KEEP_KEYS)).map((r) => r.id)
    if (old.length) await tx.delete(oidcKeys).where(inArray(oidcKeys.id, old))
  })
  return key.kid
}
