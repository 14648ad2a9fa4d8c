import { eq } from 'drizzle-orm'
import Provider, { errors, type Configuration, type KoaContextWithOIDC } from 'oidc-provider'
import type { Db } from '../../db/connection'
import { users } from '../../db/schema'
import type { Authorizer } from '../../auth/authorizer'
import type { SecretBox } from '../../lib/secret-box'
import { adapterFor } from './adapter'
import type { ClientDirectory } from './clients'
import { EXTRA_SCOPES, scopedClaims } from './claims'
import type { PrivateJwk } from './keys'
import { logoutSource, postLogoutSuccessSource, renderError } from './pages'

/** Where the provider is mounted; the issuer is `${PUBLIC_URL}/oidc`. */
export const OIDC_PREFIX = '/oidc'
/** The console route of the login and consent screens (apps/web). */
export const INTERACTION_PREFIX = '/oidc-login'
/** The resource a machine client's token is for: this server's API. */
export const apiResource = (publicUrl: string) => `${publicUrl}/api`
/** A machine token's life: short, since a JWT is checked without asking the database. */
export const MACHINE_TOKEN_TTL = 300

export interface ProviderDeps {
  db: Db
  authz: Authorizer
  box: SecretBox
  clients: ClientDirectory
  publicUrl: string
  trustProxy: boolean
}

/** The user an OpenID Connect subject names, while they may sign in (not frozen). */
async function activeUser(db: Db, sub: string) {
  const id = Number(sub)
  if (!Number.isSafeInteger(id) || id <= 0) return undefined
  const [user] = await db
    .select({ id: users.id, nickName: users.nickName, realName: users.realName, status: users.status })
    .from(users)
    .where(eq(users.id, id))
  return user && user.status === 1 ? user : undefined
}

/**
 * oidc-provider configured per DESIGN.md §16: authorization code with PKCE required for every client,
 * refresh tokens rotated on every use, client credentials for machine clients (JWT access tokens for
 * this server's API), revocation, RP-initiated logout; storage and keys in our database.
 */
export function buildProvider(deps: ProviderDeps, keys: PrivateJwk[]): Provider {
  const { db, authz, box, clients, publicUrl } = deps
  const resource = apiResource(publicUrl)
  const configuration: Configuration = {
    adapter: adapterFor(db, clients),
    jwks: { keys: keys as never },
    cookies: { keys: [box.derive('oidc-cookies')] },
    pkce: { methods: ['S256'], required: () => true },
    scopes: ['openid', 'offline_access', 'profile', ...EXTRA_SCOPES],
    claims: {
      openid: ['sub'],
      profile: ['preferred_username', 'name'],
      roles: ['roles'],
      permissions: ['permissions'],
      departments: ['departments'],
    },
    extraClientMetadata: { properties: ['require_consent'] },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      revocation: { enabled: true },
      rpInitiatedLogout: { enabled: true, logoutSource, postLogoutSuccessSource },
      resourceIndicators: {
        enabled: true,
        // only a machine client's token is for the API; a user's stays an opaque token for userinfo
        defaultResource: (ctx) =>
          ctx.oidc.params?.grant_type === 'client_credentials' ? resource : (undefined as unknown as string),
        getResourceServerInfo: (_ctx, indicator) => {
          if (indicator !== resource) throw new errors.InvalidTarget()
          return {
            scope: 'api',
            audience: resource,
            accessTokenFormat: 'jwt',
            accessTokenTTL: MACHINE_TOKEN_TTL,
            jwt: { sign: { alg: 'ES256' } },
          }
        },
        useGrantedResource: () => false,
      },
    },
    findAccount: async (ctx, sub) => {
      const user = await activeUser(db, sub)
      if (!user) return undefined
      return {
        accountId: sub,
        claims: async (_use, scope) => {
          const scopes = new Set((scope ?? '').split(' '))
          const clientId = ctx.oidc.client?.clientId ?? ''
          return {
            sub,
            preferred_username: user.nickName,
            name: user.realName ?? user.nickName,
            ...(await scopedClaims(db, authz, user.id, clientId, scopes)),
          }
        },
      }
    },
    interactions: { url: (_ctx, interaction) => `${INTERACTION_PREFIX}/${interaction.uid}` },
    // an application that needs no consent gets what it asks for, once the user has signed in
    loadExistingGrant: async (ctx: KoaContextWithOIDC) => {
      const oidc = ctx.oidc
      const grantId = oidc.result?.consent?.grantId || oidc.session?.grantIdFor(oidc.client!.clientId)
      if (grantId) return oidc.provider.Grant.find(grantId)
      if (oidc.client?.['require_consent'] === false && oidc.session?.accountId) {
        const grant = new oidc.provider.Grant({
          clientId: oidc.client.clientId,
          accountId: oidc.session.accountId,
        })
        grant.addOIDCScope(String(oidc.params?.scope ?? 'openid'))
        await grant.save()
        return grant
      }
      return undefined
    },
    renderError,
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: () => true,
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 60,
      ClientCredentials: MACHINE_TOKEN_TTL,
      IdToken: 3600,
      Interaction: 600,
      Session: 12 * 3600,
      Grant: 14 * 24 * 3600,
      RefreshToken: 14 * 24 * 3600,
    },
    // a browser application may call the token and userinfo endpoints from its own origins only
    clientBasedCORS: (_ctx, origin, client) =>
      client.redirectUris?.some((uri) => {
        try {
          return new URL(uri).origin === origin
        } catch {
          return false
        }
      }) ?? false,
    extraTokenClaims: async (ctx, token) => {
      if (token.kind !== 'ClientCredentials') return undefined
      // the client was just read for this grant: its service account is held with it
      const userId = (await clients.find(token.clientId!))?.serviceUserId
      return userId ? { amg_uid: userId } : undefined
    },
  }
  const provider = new Provider(`${publicUrl}${OIDC_PREFIX}`, configuration)
  provider.proxy = deps.trustProxy
  return provider
}
