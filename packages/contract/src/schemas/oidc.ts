import { Type, type Static } from '@sinclair/typebox'
import { MSG } from '../messages'
import { Id, withMessage } from './common'
import { OIDC_CLIENT_TYPES } from '../enums'

/**
 * DESIGN.md §16: a service's single sign-on settings. The client id is the service key; the secret is
 * answered only when made (`null` for a `spa`, which signs in with PKCE alone).
 */

const ServiceIdField = withMessage(Id, '请选择服务')

export const OidcClientBody = Type.Object({
  serviceId: ServiceIdField,
  type: Type.Union(OIDC_CLIENT_TYPES.map((t) => Type.Literal(t, { 'x-message': MSG.oidcTypeInvalid }))),
  redirectUris: Type.Array(Type.String({ maxLength: 2048, 'x-message': MSG.oidcRedirectUriInvalid }), {
    maxItems: 20,
    'x-message': MSG.oidcRedirectUriInvalid,
  }),
  // a machine client has no users to ask: the field is for web and spa applications, and ignored for it
  requireConsent: Type.Optional(Type.Boolean({ 'x-message': '请选择是否需要用户授权' })),
  enabled: Type.Optional(Type.Boolean()),
})
export type OidcClientBody = Static<typeof OidcClientBody>

export const OidcClientSaved = Type.Object({
  clientId: Type.String(),
  /** shown this once; null when none was made (a spa, or settings changed without a new secret) */
  clientSecret: Type.Union([Type.String(), Type.Null()]),
})

export const OidcServiceBody = Type.Object({ serviceId: ServiceIdField })
export const OidcServiceQuery = Type.Object({ serviceId: ServiceIdField })

export const OidcClientInfo = Type.Union([
  Type.Null(),
  Type.Object({
    clientId: Type.String(),
    type: Type.String(),
    redirectUris: Type.Array(Type.String()),
    requireConsent: Type.Boolean(),
    enabled: Type.Boolean(),
    hasSecret: Type.Boolean(),
    /** a machine client's service account */
    serviceUserId: Type.Union([Type.Integer(), Type.Null()]),
    issuer: Type.String(),
  }),
])
export type OidcClientInfo = Static<typeof OidcClientInfo>
