import { and, eq } from 'drizzle-orm'
import type { AdapterPayload } from 'oidc-provider'
import type { Db } from '../../db/connection'
import { oidcClients, services } from '../../db/schema'
import type { SecretBox } from '../../lib/secret-box'
import { ClientCache } from '../../cache/client-cache'
import type { CacheHost } from '../../cache/watched-cache'

/** DESIGN.md §16: an application's type decides how it signs in. */
export type ClientType = 'web' | 'spa' | 'machine'

/** What the provider needs of an application: its client metadata, and a machine client's service account. */
export interface KnownClient {
  metadata: AdapterPayload
  serviceUserId: number | null
}

/**
 * The applications the provider knows, read from the database once and then held in memory until a
 * service or its sign-on settings change on any instance (ClientCache): a client-credentials grant
 * then reads nothing.
 */
export class ClientDirectory {
  private readonly cache: ClientCache<KnownClient>

  constructor(
    private readonly db: Db,
    private readonly box: SecretBox,
    host: CacheHost,
  ) {
    this.cache = new ClientCache(host)
  }

  async find(clientId: string): Promise<KnownClient | null> {
    const held = this.cache.get(clientId)
    if (held !== undefined) return held
    const token = this.cache.token()
    const found = (await readClient(this.db, this.box, clientId)) ?? null
    this.cache.keep(token, clientId, found)
    return found
  }
}

/**
 * The client metadata oidc-provider reads for a client id (the service key): built from the service's
 * sign-on settings, the secret decrypted here only. A disabled application is unknown to the provider.
 */
async function readClient(db: Db, box: SecretBox, clientId: string): Promise<KnownClient | undefined> {
  const [row] = await db
    .select({
      serviceUserId: oidcClients.serviceUserId,
      key: services.key,
      name: services.name,
      type: oidcClients.type,
      redirectUris: oidcClients.redirectUris,
      requireConsent: oidcClients.requireConsent,
      secretEnc: oidcClients.secretEnc,
    })
    .from(oidcClients)
    .innerJoin(services, eq(services.id, oidcClients.serviceId))
    .where(and(eq(services.key, clientId), eq(oidcClients.enabled, true)))
    .limit(1)
  if (!row) return undefined
  return {
    metadata: metadataOf(row, row.secretEnc ? box.open(row.secretEnc) : undefined),
    serviceUserId: row.serviceUserId,
  }
}

function metadataOf(
  row: { key: string; name: string; type: string; redirectUris: string[]; requireConsent: boolean },
  secret: string | undefined,
): AdapterPayload {
  const common = { client_id: row.key, client_name: row.name, require_consent: row.requireConsent }
  if (row.type === 'machine')
    return {
      ...common,
      client_secret: secret,
      grant_types: ['client_credentials'],
      response_types: [],
      redirect_uris: [],
    }
  return {
    ...common,
    ...(secret ? { client_secret: secret } : { token_endpoint_auth_method: 'none' }),
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    redirect_uris: row.redirectUris,
    post_logout_redirect_uris: row.redirectUris,
  }
}
