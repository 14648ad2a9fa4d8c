import { randomBytes, timingSafeEqual, type ScryptOptions } from 'node:crypto'
import { availableParallelism } from 'node:os'
import { HashQueue } from './hash-queue'

/**
 * Passwords are stored as scrypt hashes: `scrypt$N$r$p$salt$hash` (base64url), never in clear.
 * The parameters travel with each hash, so a hash made at an older cost still verifies, and sign-in
 * rehashes it at the current cost (see `needsRehash`).
 */
export const DEFAULT_HASH_COST = 17 // N = 2^17, r = 8, p = 1: OWASP's current recommendation for scrypt
export const MIN_HASH_COST = 14
/** The largest cost a stored hash may name: beyond it one verification would need gigabytes. */
const MAX_HASH_COST = 20
const R = 8
const P = 1
const KEY_LENGTH = 32

let currentCost = DEFAULT_HASH_COST

/** Every hash and check of this process waits its turn here (hash-queue.ts). */
export const hashQueue = new HashQueue(Math.max(1, availableParallelism() - 1), 10_000)

export interface HashingLimits {
  /** hashes run at once (PASSWORD_HASH_CONCURRENCY) */
  concurrency: number
  /** the longest a hash waits for its turn before 503 (PASSWORD_HASH_MAX_WAIT_SECONDS) */
  maxWaitSeconds: number
}

/**
 * Sets the cost (log2 N) of new hashes for this process, and how many run at once; the server calls
 * it once at start with PASSWORD_HASH_COST. Tests use a lower cost so that the many passwords they
 * hash stay fast.
 */
export function configurePasswordHashing(cost: number, limits?: HashingLimits) {
  if (!Number.isInteger(cost) || cost < MIN_HASH_COST || cost > MAX_HASH_COST)
    throw new Error(`PASSWORD_HASH_COST 必须是 ${MIN_HASH_COST} 到 ${MAX_HASH_COST} 之间的整数: ${cost}`)
  if (cost !== currentCost) dummyHash = undefined // the dummy must cost what a real check costs
  currentCost = cost
  if (limits) hashQueue.configure(limits.concurrency, limits.maxWaitSeconds * 1000)
}

export const passwordHashCost = () => currentCost

// scrypt refuses to run when 128·N·r exceeds maxmem; the margin covers its other, small buffers.
const maxmemFor = (N: number, r: number) => 128 * N * r + 16 * 1024 * 1024

/** `wanted`: the hash queue's (hash-queue.ts): aborted, a hash still waiting its turn is not made. */
const derive = (
  password: string,
  salt: Buffer,
  opts: Required<Pick<ScryptOptions, 'N' | 'r' | 'p'>>,
  wanted?: AbortSignal,
) =>
  hashQueue.scrypt(
    {
      password: password.normalize('NFKC'),
      salt,
      keyLength: KEY_LENGTH,
      options: { ...opts, maxmem: maxmemFor(opts.N, opts.r) },
    },
    wanted,
  )

/** Hashes at the configured cost, or at `cost` (log2 N) when given. */
export async function hashPassword(password: string, cost = currentCost): Promise<string> {
  const N = 2 ** cost
  const salt = randomBytes(16)
  const key = await derive(password, salt, { N, r: R, p: P })
  return ['scrypt', N, R, P, salt.toString('base64url'), key.toString('base64url')].join('$')
}

interface Parsed {
  N: number
  r: number
  p: number
  salt: Buffer
  hash: Buffer
}

function parse(stored: string): Parsed | null {
  const [algo, n, r, p, salt, hash] = stored.split('$')
  const N = Number(n)
  const params = { N, r: Number(r), p: Number(p) }
  if (algo !== 'scrypt' || !salt || !hash) return null
  // A stored hash comes from our own database, but an absurd N must not take the server down.
  if (!Number.isInteger(Math.log2(N)) || N < 2 || N > 2 ** MAX_HASH_COST) return null
  if (!Number.isInteger(params.r) || params.r < 1 || 128 * N * params.r > 2 ** 30) return null
  if (!Number.isInteger(params.p) || params.p < 1 || params.p > 16) return null
  return { ...params, salt: Buffer.from(salt, 'base64url'), hash: Buffer.from(hash, 'base64url') }
}

export async function verifyPassword(
  password: string,
  stored: string,
  wanted?: AbortSignal,
): Promise<boolean> {
  const parsed = parse(stored)
  return parsed ? verifyParsed(password, parsed, wanted) : false
}

async function verifyParsed(password: string, parsed: Parsed, wanted?: AbortSignal): Promise<boolean> {
  const key = await derive(password, parsed.salt, { N: parsed.N, r: parsed.r, p: parsed.p }, wanted)
  return key.length === parsed.hash.length && timingSafeEqual(key, parsed.hash)
}

/**
 * A sign-in's check, taking about as long whoever the account (DESIGN.md §11): an unknown name (no
 * stored hash) or an unreadable hash is checked against the dummy hash; a hash made below the current
 * cost — an account that has not signed in since the cost was raised, which a frozen account never
 * does — is checked alongside the dummy, so it does not answer sooner. How long a wrong password takes
 * then says nothing about whether the account exists or what state it is in.
 */
export async function verifyPasswordEvenly(
  password: string,
  stored: string | undefined,
  wanted?: AbortSignal,
): Promise<boolean> {
  const parsed = stored === undefined ? null : parse(stored)
  const againstDummy = async () => verifyPassword(password, await dummyPasswordHash(), wanted)
  if (!parsed) {
    await againstDummy()
    return false
  }
  if (parsed.N >= 2 ** currentCost) return verifyParsed(password, parsed, wanted)
  const [ok] = await Promise.all([verifyParsed(password, parsed, wanted), againstDummy()])
  return ok
}

/** True when a stored (and just verified) hash was made below the current cost: rehash it. */
export function needsRehash(stored: string): boolean {
  const parsed = parse(stored)
  return parsed !== null && parsed.N < 2 ** currentCost
}

/**
 * A hash of a random password, checked against when the user is unknown so both failures take the same
 * time. Made at start (the session routes ask for it when ready), so the first unknown name is not slower.
 */
let dummyHash: Promise<string> | undefined
export const dummyPasswordHash = () => (dummyHash ??= hashPassword(randomBytes(12).toString('hex')))
