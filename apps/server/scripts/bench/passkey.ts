/**
 * Passkey assertions verified per second per core (DESIGN.md §23; goal ≥ 300): the verifier the
 * server runs (`verifyAuthenticationResponse` of @simplewebauthn/server: clientDataJSON, rp id hash,
 * flags, counter and the ES256 signature), on assertions made beforehand by the tests' software
 * authenticator, each for its own challenge. Per core: the count over the process's CPU seconds, so
 * that work the verifier hands to libuv's threads is counted as the cores it used.
 */
import { randomBytes } from 'node:crypto'
import { verifyAuthenticationResponse } from '@simplewebauthn/server'
import { isoBase64URL } from '@simplewebauthn/server/helpers'
import { SoftAuthenticator } from '../../test/helpers/soft-authenticator'

const RP = 'localhost'
const ORIGIN = 'http://localhost:8080'

export async function measurePasskeyAssertions({ seconds }: { seconds: number }) {
  const key = new SoftAuthenticator(RP, ORIGIN)
  // the stored public key, as registration keeps it
  const reg = key.register({ challenge: isoBase64URL.fromBuffer(randomBytes(32)), user: { id: 'MQ' } })
  const { verifyRegistrationResponse } = await import('@simplewebauthn/server')
  const registered = await verifyRegistrationResponse({
    response: reg as never,
    expectedChallenge: () => true,
    expectedOrigin: ORIGIN,
    expectedRPID: RP,
  })
  const publicKey = registered.registrationInfo!.credential.publicKey
  const batch = Array.from({ length: 2000 }, () => {
    const challenge = isoBase64URL.fromBuffer(randomBytes(32))
    return { challenge, counter: key.counter, response: key.assert({ challenge }) }
  })
  const verify = (i: number) => {
    const a = batch[i % batch.length]
    return verifyAuthenticationResponse({
      response: a.response as never,
      expectedChallenge: a.challenge,
      expectedOrigin: ORIGIN,
      expectedRPID: RP,
      requireUserVerification: true,
      credential: { id: key.id, publicKey, counter: a.counter },
    })
  }
  for (let i = 0; i < 200; i++) await verify(i) // warm up
  const cpu0 = process.cpuUsage()
  const t0 = performance.now()
  let n = 0
  while (performance.now() - t0 < seconds * 1000) {
    const result = await verify(n)
    if (!result.verified) throw new Error('an assertion did not verify')
    n++
  }
  const wall = (performance.now() - t0) / 1000
  const cpu = process.cpuUsage(cpu0)
  const cpuSeconds = (cpu.user + cpu.system) / 1e6
  return { assertions: n, perSecond: Math.round(n / wall), perCoreSecond: Math.round(n / cpuSeconds) }
}
