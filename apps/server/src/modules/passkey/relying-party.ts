import type { FastifyRequest } from 'fastify'
import type { Config } from '../../config'

/** Who the passkeys belong to and where the console runs (DESIGN.md §23). */
export interface RelyingParty {
  /** the host name: browsers refuse an IP address here, so the console is reached by a name */
  rpID: string
  /** the console's origin, the only one a response may come from */
  origin: string
  rpName: string
}

export const RP_NAME = '权限管理系统'

/**
 * The relying party of a request: from PUBLIC_URL when it is set (every instance behind a gateway
 * agrees on it, whatever address reached them), else from the address this request reached the
 * console at (a trial on localhost).
 */
export function relyingPartyOf(
  config: Pick<Config, 'publicUrl' | 'publicUrlSet'>,
  req: FastifyRequest,
): RelyingParty {
  const url = config.publicUrlSet ? new URL(config.publicUrl) : new URL(`${req.protocol}://${req.host}`)
  return { rpID: url.hostname, origin: url.origin, rpName: RP_NAME }
}

/**
 * What a browser's passkey answer must show to pass, registering or signing in: the challenge handed
 * out, this console's origin and relying-party id, and a user verified on the device.
 */
export const expectedBy = (rp: RelyingParty, challenge: string) => ({
  expectedChallenge: challenge,
  expectedOrigin: rp.origin,
  expectedRPID: rp.rpID,
  requireUserVerification: true,
})
