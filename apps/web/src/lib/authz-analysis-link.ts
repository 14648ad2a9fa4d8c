import { canAccess } from './access'
import { useSession } from './session-store'

/** 权限分析 (DESIGN.md §10). Other screens open it with a user already chosen. */
export const AUTHZ_ANALYSIS_PATH = '/authzanalysis'

export const authzAnalysisUrl = (userId: number) =>
  `${AUTHZ_ANALYSIS_PATH}?${new URLSearchParams({ userId: String(userId) }).toString()}`

/**
 * Whether the signed-in admin may open 权限分析, by the rule the menu follows: links to it are shown
 * only then, so nobody is sent to a page the menu hides from them.
 */
export function useCanOpenAuthzAnalysis(): boolean {
  return useSession((s) => !s.userAuth || canAccess(s.auths, AUTHZ_ANALYSIS_PATH))
}
