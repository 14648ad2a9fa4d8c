import { Outlet, useMatches } from 'react-router'
import { canAccess } from '../lib/access'
import { useSession } from '../lib/session-store'
import { ForbiddenPage } from './lazy-pages'

/**
 * The screen, or the 403 page when the user's access does not open it (SPEC.md §5's path rule, the
 * one the menu is filtered by): a typed address shows 无权访问 rather than an empty list whose calls
 * are refused. The screen's own address decides (the route below the layout); a screen with tabs
 * shows the tabs the user may open itself (the user screen moves to the first of them). An unknown
 * address stays the 404 page; with the access flag off nothing is filtered, as the menu.
 */
export function PageGuard() {
  const matches = useMatches()
  const auths = useSession((s) => s.auths)
  const authOn = useSession((s) => s.userAuth)
  // matches[0] is the signed-in layout, matches[1] the screen
  const screen = matches[1]
  if (authOn && screen && !isCatchAll(matches) && !canAccess(auths, screen.pathname)) return <ForbiddenPage />
  return <Outlet />
}

/** The route table's last entry ('*') answers an address no screen has. */
const isCatchAll = (matches: ReturnType<typeof useMatches>) =>
  matches.length > 0 && (matches[matches.length - 1].params['*'] ?? null) !== null
