import { API_PREFIX, SIGN_IN_MSG, routes, type Restriction } from '@amg/contract'
import { forbidden } from '../lib/errors'

/**
 * What a restricted session may call (DESIGN.md §14): the current user, its own password (and the
 * rules it must pass), MFA enrolment and logout. Everything else is refused whatever the console does, so a password set by
 * someone else, or a missing second factor, opens nothing until it is dealt with.
 */
const ALLOWED = [
  routes.session.current,
  routes.session.changePassword,
  routes.session.logout,
  routes.mfa.setup,
  routes.mfa.enable,
  routes.settings.getPasswordPolicy,
]
const ALLOWED_KEYS = new Set(
  ALLOWED.flatMap((r) => [r.method].flat().map((m) => `${m} ${API_PREFIX}${r.path}`)),
)

/** Whether a restricted session may make this call (`routeUrl`: the route's registered url). */
export const restrictedMayCall = (method: string, routeUrl: string | undefined): boolean =>
  ALLOWED_KEYS.has(`${method === 'HEAD' ? 'GET' : method} ${routeUrl ?? ''}`)

export const restrictionRefusal = (restricted: Restriction) =>
  forbidden(restricted === 'password_change' ? SIGN_IN_MSG.mustChangePassword : SIGN_IN_MSG.mustEnrollMfa)
