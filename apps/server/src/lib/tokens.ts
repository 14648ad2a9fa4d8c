import { hash, randomBytes } from 'node:crypto'

/** Opaque session tokens: 256 random bits; only their SHA-256 is stored. */
export const newToken = () => randomBytes(32).toString('base64url')
/** One-shot hashing: a hash object per request cost twice as much, on every signed-in call. */
export const hashToken = (token: string) => hash('sha256', token, 'hex')
