import { API_PREFIX, PASSKEY_MSG, SIGN_IN_MSG, routes, type Restriction, type Route } from '@amg/contract'
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
/**
 * DESIGN.md §23: enrolling a passkey (the service keeps a restricted caller to their own), for a
 * session held back for a second factor — a passkey is one — but not for a password to change.
 */
const ENROL_PASSKEY = [routes.passkey.registerOptions, routes.passkey.registerVerify, routes.passkey.list]
const keysOf = (list: readonly Pick<Route, 'method' | 'path'>[]) =>
  new Set(list.flatMap((r) => [r.method].flat().map((m) => `${m} ${API_PREFIX}${r.path}`)))
const ALLOWED_KEYS = keysOf(ALLOWED)
const PASSKEY_KEYS = keysOf(ENROL_PASSKEY)

/** Whether a restricted session may make this call (`routeUrl`: the route's registered url). */
export const restrictedMayCall = (
  method: string,
  routeUrl: string | undefined,
  restricted?: Restriction,
): boolean => {
  const key = `${method === 'HEAD' ? 'GET' : method} ${routeUrl ?? ''}`
  return ALLOWED_KEYS.has(key) || (restricted !== 'password_change' && PASSKEY_KEYS.has(key))
}

export const restrictionRefusal = (restricted: Restriction) =>
  forbidden(
    restricted === 'password_change'
      ? SIGN_IN_MSG.mustChangePassword
      : restricted === 'passkey_enroll'
        ? PASSKEY_MSG.mustEnroll
        : SIGN_IN_MSG.mustEnrollMfa,
  )
