import { isValidPassword } from '@amg/contract'

/** A reset password: 16 characters, long enough to guess never, short enough to type once. */
export const RESET_PASSWORD_LENGTH = 16

// no look-alikes (0/O, 1/l/I), so the password can be read aloud or typed from a screen
const UPPER = 'ABCDEFGHJKLMNPQRSTUVWXYZ'
const LOWER = 'abcdefghijkmnopqrstuvwxyz'
const DIGITS = '23456789'
const SPECIAL = '!@#$%^&*-+=?'
const ALL = UPPER + LOWER + DIGITS + SPECIAL

/** An unbiased random index below `n` from the browser's cryptographic source. */
function randomIndex(n: number): number {
  const limit = Math.floor(0x100000000 / n) * n
  const buf = new Uint32Array(1)
  for (;;) {
    crypto.getRandomValues(buf)
    if (buf[0] < limit) return buf[0] % n
  }
}

const pick = (chars: string) => chars[randomIndex(chars.length)]

/**
 * A random password the contract's password rule accepts (isValidPassword): one of each character
 * class, the rest from all of them, shuffled.
 */
export function randomPassword(length = RESET_PASSWORD_LENGTH): string {
  for (;;) {
    const chars = [pick(UPPER), pick(LOWER), pick(DIGITS), pick(SPECIAL)]
    while (chars.length < length) chars.push(pick(ALL))
    for (let i = chars.length - 1; i > 0; i--) {
      const j = randomIndex(i + 1)
      ;[chars[i], chars[j]] = [chars[j], chars[i]]
    }
    const password = chars.join('')
    // the rule is the contract's; should it ever tighten, a password it refuses is never shown
    if (isValidPassword(password)) return password
  }
}
