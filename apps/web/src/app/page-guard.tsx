import { Outlet, useLocation, useMatches } from 'react-router'
import { canAccess } from '../lib/access'
import { useSession } from '../lib/session-store'
import { ForbiddenPage } from './forbidden-page'

/**
 * The screen, or the 403 page when the user's access does not open its address (SPEC.md §5's path
 * rule, the one the menu is filtered by): a typed address shows 无权访问 rather than an empty list
 * whose calls are refused. An unknown address stays the 404 page; with the access flag off nothing is
 * filtered, as the menu.
 */
export function PageGuard() {
  const { pathname } = useLocation()
  const matches = useMatches()
  const auths = useSession((s) => s.auths)
  const authOn = useSession((s) => s.userAuth)
  if (authOn && !isCatchAll(matches) && !canAccess(auths, pathname)) return <ForbiddenPage />
  return <Outlet />
}

/** The route table's last entry ('*') answers an address no screen has. */
const isCatchAll = (matches: ReturnType<typeof useMatches>) =>
  matches.length > 0 && (matches[matches.length - 1].params['*'] ?? null) !== null
