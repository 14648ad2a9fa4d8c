import { hash, randomBytes } from 'node:crypto'

/** Opaque session tokens: 256 random bits; only their SHA-256 is stored. */
export const newToken = () => randomBytes(32).toString('base64url')
/** One-shot hashing: a hash object per request cost twice as much, on every signed-in call. */
export const hashToken = (token: string) => hash('sha256', token, 'hex')

/** Tokens whose hash is kept (a session token or an API key is under 50 characters; a longer one is never kept). */
const PRESENTED_REMEMBERED = 10_000
const PRESENTED_MAX_LENGTH = 128
const presented = new Map<string, string>()

/**
 * `hashToken` of a token a request presents to sign in a call (a session token, an API key), kept for
 * the tokens seen lately: a warm signed-in call then costs a lookup instead of a SHA-256, about 0.6 µs of
 * a forward-auth answer's 21. The hash is a function of the token alone, so a kept one is never stale:
 * whether its session or key is valid is still asked by that hash every time. Bounded: past 10,000
 * tokens it starts afresh. Memory then holds some raw tokens a little longer than the request that
 * brought them, as it holds machine tokens (oidc/host.ts) and the signing keys themselves.
 */
export function hashPresentedToken(token: string): string {
  let hashed = presented.get(token)
  if (hashed === undefined) {
    hashed = hashToken(token)
    if (token.length > PRESENTED_MAX_LENGTH) return hashed
    if (presented.size >= PRESENTED_REMEMBERED) presented.clear()
    presented.set(token, hashed)
  }
  return hashed
}
