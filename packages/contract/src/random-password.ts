import { passwordPolicyProblem, type SecuritySettings } from './password-policy'
import { PASSWORD_MAX } from './rules'

/**
 * The password 重置密码 sets (DESIGN.md §14): random, and always one the live policy accepts, so a
 * reset never fails on a rule the administrator did not choose. Here in the contract so the console
 * that draws it and the server tests that prove the server takes it run the same code.
 */

/** A reset password is at least this long: long enough never to be guessed, short enough to type once. */
export const RESET_PASSWORD_LENGTH = 16

// no look-alikes (0/O, 1/l/I), so the password can be read aloud or typed from a screen; every class
// the policy counts has its own set, so a password holds all four whatever minClasses says
const CLASS_SETS = ['ABCDEFGHJKLMNPQRSTUVWXYZ', 'abcdefghijkmnopqrstuvwxyz', '23456789', '!@#$%^&*-+=?']

/** An unbiased random index below `n` from the platform's cryptographic source (browser or Node). */
function randomIndex(n: number): number {
  const limit = Math.floor(0x100000000 / n) * n
  const buf = new Uint32Array(1)
  for (;;) {
    globalThis.crypto.getRandomValues(buf)
    if (buf[0] < limit) return buf[0] % n
  }
}

/**
 * A random password `policy` accepts for the user `userName`: as long as the policy's minimum (at
 * least RESET_PASSWORD_LENGTH, at most the rule's maximum), one character of each class, shuffled.
 * When the policy forbids the user's name, the name's first character (either case) is left out of
 * every set, so the name cannot appear however short it is.
 */
export function randomPassword(
  policy: Pick<SecuritySettings, 'minLength' | 'minClasses' | 'notUsername'>,
  userName?: string | null,
): string {
  const length = Math.min(PASSWORD_MAX, Math.max(RESET_PASSWORD_LENGTH, policy.minLength))
  const first = policy.notUsername ? (userName?.trim().toLowerCase()[0] ?? null) : null
  const sets = CLASS_SETS.map((set) => [...set].filter((c) => c.toLowerCase() !== first).join(''))
  const all = sets.join('')
  const pick = (chars: string) => chars[randomIndex(chars.length)]
  for (;;) {
    const chars = sets.map(pick)
    while (chars.length < length) chars.push(pick(all))
    for (let i = chars.length - 1; i > 0; i--) {
      const j = randomIndex(i + 1)
      ;[chars[i], chars[j]] = [chars[j], chars[i]]
    }
    const password = chars.join('')
    // the policy is the contract's; should it ever gain a rule this does not build for, a password
    // it refuses is drawn again rather than shown
    if (passwordPolicyProblem(password, policy, userName) === null) return password
  }
}
