import { SecurityScanOutlined } from '@ant-design/icons'
import { useQuery } from '@tanstack/react-query'
import { routes } from '@amg/contract'
import { Button, Empty, Spin } from 'antd'
import { Navigate, useLocation, useNavigate, useSearchParams } from 'react-router'
import { canAccess } from '../../lib/access'
import { authzAnalysisUrl, useCanOpenAuthzAnalysis } from '../../lib/authz-analysis-link'
import { useSession } from '../../lib/session-store'
import { RouteTabs, type RouteTab } from '../../lib/ui/route-tabs'
import { Screen } from '../../lib/ui/screen'
import { useCanCall } from '../../lib/can-call'
import { UnreachableRecord, unreachable } from '../../components/unreachable-record'
import { userDetail } from './api'
import { USER_LIST_PATH } from './user-list'

export { UserListPage } from './user-list'
export { UserAddPage } from './user-add'
export { UserBaseInfoTab } from './base-info-tab'
export { UserRoleTab, UserGroupTab } from './link-tabs'
export { UserPositionTab } from './position-tab'

export const USER_INFO_BASE = '/usermanage/userinfo'

export const USER_INFO_TABS: readonly RouteTab[] = [
  { key: 'userbaseinfo', label: '基本信息' },
  { key: 'roleformbyuser', label: '关联角色' },
  { key: 'usergroupformbyuser', label: '关联用户组' },
  { key: 'positionformbyuser', label: '关联岗位' },
]

/**
 * The user tabs (SPEC.md §2): a tab appears only if the current user's access list allows the
 * tab's path; the base info tab is hidden when the deployment flag is set.
 */
export function visibleUserTabs(
  auths: readonly string[],
  authOn: boolean,
  hideBaseInfo: boolean,
): RouteTab[] {
  return USER_INFO_TABS.filter((t) => !(hideBaseInfo && t.key === 'userbaseinfo')).filter(
    (t) => !authOn || canAccess(auths, `${USER_INFO_BASE}/${t.key}`),
  )
}

/**
 * The tabbed container, query id and title. The route table sends /usermanage/userinfo to the base
 * info tab; when that tab (or any other) is not visible, the first visible tab opens instead.
 */
export function UserInfoPage() {
  const [params] = useSearchParams()
  const location = useLocation()
  const auths = useSession((s) => s.auths)
  const authOn = useSession((s) => s.userAuth)
  const hideBaseInfo = useSession((s) => s.hideUserBaseInfo)
  const navigate = useNavigate()
  const canAnalyse = useCanOpenAuthzAnalysis()
  const tabs = visibleUserTabs(auths, authOn, hideBaseInfo)
  const userId = Number(params.get('id'))
  const validId = Number.isSafeInteger(userId) && userId > 0
  // a user outside the caller's scope (or deleted) is told in a page of its own, before any tab
  // opens an empty form (DESIGN.md §13); the tabs then read the record from the cache
  const canRead = useCanCall(routes.user.detail)
  const reach = useQuery({
    queryKey: ['user', 'detail', userId],
    queryFn: () => userDetail(userId, { silent: true }),
    enabled: canRead && validId,
  })
  const blocked = unreachable(reach.error)
  const segment = location.pathname.slice(USER_INFO_BASE.length + 1).split('/')[0]
  if (segment && tabs.length > 0 && !tabs.some((t) => t.key === segment)) {
    return <Navigate to={`${USER_INFO_BASE}/${tabs[0].key}${location.search}`} replace />
  }
  return (
    <Screen
      title={params.get('title') || '用户信息'}
      extra={
        canAnalyse && validId && !blocked ? (
          <Button icon={<SecurityScanOutlined />} onClick={() => navigate(authzAnalysisUrl(userId))}>
            权限分析
          </Button>
        ) : null
      }
    >
      {blocked ? (
        <UnreachableRecord error={blocked} backTo={USER_LIST_PATH} />
      ) : canRead && validId && reach.isPending ? (
        <Spin style={{ display: 'block', margin: '24px auto' }} />
      ) : tabs.length === 0 ? (
        <Empty description="没有可查看的内容" />
      ) : (
        <RouteTabs base={USER_INFO_BASE} tabs={tabs} />
      )}
    </Screen>
  )
}
export { PersonalCenterPage } from './personal-page'
