import { Secret, TOTP } from 'otpauth'

/**
 * TOTP as DESIGN.md §14 fixes it (RFC 6238: 30 s steps, 6 digits, SHA-1), with otpauth doing the
 * arithmetic. The window is ±1 step, and the step a code was accepted at is remembered by the caller
 * so the same step (or an earlier one) is never accepted again.
 */
export const TOTP_PERIOD = 30
export const TOTP_DIGITS = 6
export const ISSUER = '权限管理系统'

const totpOf = (secretBase32: string, label = 'user') =>
  new TOTP({
    issuer: ISSUER,
    label,
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD,
    secret: Secret.fromBase32(secretBase32),
  })

/** A new 160-bit key (RFC 4226's recommended length), base32 as authenticator apps take it. */
export const newTotpSecret = (): string => new Secret({ size: 20 }).base32

export const otpauthUri = (secretBase32: string, userName: string): string =>
  totpOf(secretBase32, userName).toString()

/** The time step of a moment (ms since the epoch). */
export const stepAt = (now: number): number => Math.floor(now / 1000 / TOTP_PERIOD)

/**
 * The step `code` matches within ±1 step of `now`, or null. A step at or before `lastStep` (already
 * used) is refused. Anything but six digits (spaces aside) matches nothing.
 */
export function matchStep(
  secretBase32: string,
  code: string,
  lastStep: number,
  now = Date.now(),
): number | null {
  const token = code.replace(/\s+/g, '')
  if (!/^\d{6}$/.test(token)) return null
  const delta = totpOf(secretBase32).validate({ token, timestamp: now, window: 1 })
  if (delta === null) return null
  const step = stepAt(now) + delta
  return step > lastStep ? step : null
}

/** The code of a moment (tests, the bench). */
export const codeAt = (secretBase32: string, now: number): string =>
  totpOf(secretBase32).generate({ timestamp: now })
