import { and, eq } from 'drizzle-orm'
import type { AdapterPayload } from 'oidc-provider'
import type { Db } from '../../db/connection'
import { oidcClients, services } from '../../db/schema'
import type { SecretBox } from '../../lib/secret-box'

/** DESIGN.md §16: an application's type decides how it signs in. */
export type ClientType = 'web' | 'spa' | 'machine'

/**
 * The client metadata oidc-provider reads for a client id (the service key): built from the service's
 * sign-on settings, the secret decrypted here only. A disabled application is unknown to the provider.
 */
export async function findClientMetadata(
  db: Db,
  box: SecretBox,
  clientId: string,
): Promise<AdapterPayload | undefined> {
  const [row] = await db
    .select({
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
  const secret = row.secretEnc ? box.open(row.secretEnc) : undefined
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
