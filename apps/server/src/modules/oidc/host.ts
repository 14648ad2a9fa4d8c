import { createPublicKey, verify, type KeyObject } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type Provider from 'oidc-provider'
import type { KoaContextWithOIDC } from 'oidc-provider'
import type { Database, Db } from '../../db/connection'
import type { Authorizer } from '../../auth/authorizer'
import type { SecretBox } from '../../lib/secret-box'
import type { CacheHost } from '../../cache/watched-cache'
import {
  MachineTokenDenials,
  tokenDenialKey,
  type MachineTokenIdentity,
} from '../../cache/machine-token-denials'
import { denyToken } from './token-denials'
import { ClientDirectory } from './clients'
import { apiResource, buildProvider, OIDC_PREFIX, type ProviderDeps } from './provider'
import { loadSigningKeys, rotateSigningKey } from './keys'

/** What every instance is told when the signing keys change: each rebuilds its provider from the database. */
export const KEYS_CHANGED = 'oidc-keys'

type Handler = (req: IncomingMessage, res: ServerResponse) => void

/** A machine token checked by its signature: the service account it acts as, and what names it. */
export interface MachineToken extends MachineTokenIdentity {
  userId: number
  expiresAt: number
}

/** Where the denials are heard of, and the barrier a revocation waits at before it answers. */
type DenialHost = CacheHost & { database: CacheHost['database'] & Pick<Database, 'heardSoFar'> }

/** The provider's revocation endpoint, under the mount point. */
const REVOCATION_PATH = '/token/revocation'

/**
 * The running provider, rebuilt when the signing keys change (on this instance by the rotation call,
 * on the others by the notification it sends), and the check of machine tokens: a JWT signed with one
 * of our keys, verified in memory, and not denied (revoked, or its client turned off or deleted: the
 * denials every instance holds), so a machine client's call needs no query once warm.
 */
export class OidcHost {
  private provider!: Provider
  private handler!: Handler
  private publicKeys = new Map<string, { alg: string; key: KeyObject }>()
  /** tokens already checked, until they expire: a warm call costs no signature check either */
  private checked = new Map<string, MachineToken>()
  private readonly issuer: string
  private readonly audience: string
  /** the machine tokens refused before they expire, as every instance holds them */
  readonly denials: MachineTokenDenials

  constructor(
    private readonly deps: ProviderDeps,
    private readonly cacheHost: DenialHost,
  ) {
    this.issuer = `${deps.publicUrl}${OIDC_PREFIX}`
    this.audience = apiResource(deps.publicUrl)
    this.denials = new MachineTokenDenials(deps.db, cacheHost)
  }

  get current(): Provider {
    return this.provider
  }

  async load(): Promise<void> {
    const keys = await loadSigningKeys(this.deps.db, this.deps.box)
    const provider = buildProvider(this.deps, keys)
    this.publicKeys = new Map(
      keys.map((k) => [
        k.kid,
        { alg: String(k.alg), key: createPublicKey({ key: k as never, format: 'jwk' }) },
      ]),
    )
    this.checked = new Map()
    provider.use((ctx, next) => this.afterRevocation(ctx as KoaContextWithOIDC, next))
    this.provider = provider
    this.handler = provider.callback() as Handler
  }

  /** The provider's own answer to a request under /oidc (mounted with @fastify/middie). */
  handle(req: IncomingMessage, res: ServerResponse) {
    this.handler(req, res)
  }

  /** Makes a new signing key for every instance; answers its id. */
  async rotateKeys(notify: () => Promise<void>): Promise<string> {
    const kid = await rotateSigningKey(this.deps.db, this.deps.box)
    await this.load()
    await notify()
    return kid
  }

  /**
   * The provider answers a revocation of a JWT with 200 and does nothing (it stores no JWT to delete).
   * After it has authenticated the client and answered 200, a machine token of ours given to that very
   * client is denied: written for every instance, known here at once, and answered only once this
   * instance has heard its notification, which every other instance was sent at the same moment.
   */
  private async afterRevocation(ctx: KoaContextWithOIDC, next: () => Promise<void>) {
    await next()
    if (ctx.method !== 'POST' || ctx.path !== REVOCATION_PATH || ctx.status !== 200) return
    const client = ctx.oidc?.client
    const token = ctx.oidc?.params?.token
    if (!client || typeof token !== 'string') return
    const machine = this.check(token, Date.now())
    if (!machine || machine.clientId !== client.clientId) return
    const before = await denyToken(this.deps.db, machine.jti, machine.expiresAt)
    this.denials.remember(tokenDenialKey(machine.jti), before)
    this.checked.delete(token)
    await this.cacheHost.database.heardSoFar()
  }

  /**
   * The machine token, or null when it is not one of ours, not for this API, or expired. Synchronous:
   * an ES256 or RS256 check against keys held in memory. Whether it was denied is asked apart
   * (`denials`), since that may need the database.
   */
  machineToken(token: string, now = Date.now()): MachineToken | null {
    const hit = this.checked.get(token)
    if (hit) {
      if (hit.expiresAt > now) return hit
      this.checked.delete(token)
      return null
    }
    const checked = this.check(token, now)
    if (checked) {
      if (this.checked.size >= 10_000) this.checked.clear()
      this.checked.set(token, checked)
    }
    return checked
  }

  private check(token: string, now: number): MachineToken | null {
    const parts = token.split('.')
    if (parts.length !== 3) return null
    try {
      const header = JSON.parse(Buffer.from(parts[0], 'base64url').toString('utf8')) as {
        alg?: string
        kid?: string
      }
      const held = header.kid ? this.publicKeys.get(header.kid) : undefined
      if (!held || held.alg !== header.alg || (header.alg !== 'RS256' && header.alg !== 'ES256')) return null
      const signed = Buffer.from(`${parts[0]}.${parts[1]}`)
      const signature = Buffer.from(parts[2], 'base64url')
      const key = header.alg === 'ES256' ? { key: held.key, dsaEncoding: 'ieee-p1363' as const } : held.key
      if (!verify('sha256', signed, key, signature)) return null
      const claims = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8')) as Record<
        string,
        unknown
      >
      const aud = claims.aud
      const audOk = aud === this.audience || (Array.isArray(aud) && aud.includes(this.audience))
      if (claims.iss !== this.issuer || !audOk) return null
      if (typeof claims.exp !== 'number' || claims.exp * 1000 <= now) return null
      const { amg_uid: uid, jti, client_id: clientId, iat } = claims
      // every token the provider signs names itself (jti) and its client: what a denial is about
      if (typeof jti !== 'string' || typeof clientId !== 'string' || typeof iat !== 'number') return null
      return typeof uid === 'number' && Number.isSafeInteger(uid)
        ? { userId: uid, expiresAt: claims.exp * 1000, jti, clientId, issuedAt: iat * 1000 }
        : null
    } catch {
      return null
    }
  }
}

export function oidcHost(
  db: Db,
  authz: Authorizer,
  box: SecretBox,
  config: { publicUrl: string; trustProxy: unknown },
  cacheHost: DenialHost,
) {
  return new OidcHost(
    {
      db,
      authz,
      box,
      clients: new ClientDirectory(db, box, cacheHost),
      publicUrl: config.publicUrl,
      trustProxy: config.trustProxy !== false,
    },
    cacheHost,
  )
}
