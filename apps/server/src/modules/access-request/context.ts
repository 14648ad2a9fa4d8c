import type { AppContext } from '../context'

/** What this module's services are handed (a part of the app context). */
export type AccessCtx = Pick<AppContext, 'db' | 'authz' | 'links' | 'power' | 'box' | 'loginThrottle'>
