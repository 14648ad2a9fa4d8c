import { execFileSync } from 'node:child_process'

/** A TOTP code from an independent implementation (Debian's oathtool) for the step of `at` (ms). */
export const oathtool = (secret: string, at = Date.now()) =>
  execFileSync('oathtool', ['--totp', '-b', secret, '-N', `@${Math.floor(at / 1000)}`], {
    encoding: 'utf8',
  }).trim()

/**
 * A code of the step before now, for binding two-step sign-in while now's and later codes stay unused.
 * The server accepts a code one step away: one made in the last seconds of a step is two steps old by
 * the time a busy machine checks it, so those seconds are waited out first.
 */
export async function previousStepCode(secret: string): Promise<string> {
  const intoStep = Date.now() % 30_000
  if (intoStep > 25_000) await new Promise((resolve) => setTimeout(resolve, 30_100 - intoStep))
  return oathtool(secret, Date.now() - 30_000)
}
