import { useSearchParams } from 'react-router'
import { canAccess } from '../../lib/access'
import { useSession } from '../../lib/session-store'
import { RouteTabs, type RouteTab } from '../../lib/ui/route-tabs'
import { PlaceholderScreen, Screen } from '../../lib/ui/screen'

export function UserListPage() {
  return <PlaceholderScreen title="用户管理" summary="用户列表：按昵称搜索、新建、修改、删除，每页 10 条。" />
}

export function UserAddPage() {
  return (
    <PlaceholderScreen title="新建用户" summary="输入用户昵称新建用户（状态为正常，使用预设初始密码）。" />
  )
}

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

export function UserInfoPage() {
  const [params] = useSearchParams()
  const auths = useSession((s) => s.auths)
  const authOn = useSession((s) => s.userAuth)
  const hideBaseInfo = useSession((s) => s.hideUserBaseInfo)
  const tabs = visibleUserTabs(auths, authOn, hideBaseInfo)
  return (
    <Screen title={params.get('title') || '用户信息'}>
      <RouteTabs base={USER_INFO_BASE} tabs={tabs} />
    </Screen>
  )
}

export function UserBaseInfoTab() {
  return <PlaceholderScreen title="基本信息" summary="用户昵称、手机号、真实姓名、密码、状态。" />
}

export function UserRoleTab() {
  return (
    <PlaceholderScreen
      title="关联角色"
      summary="该用户关联的角色：搜索、分页、移除，并可在弹出框中关联更多角色。"
    />
  )
}

export function UserGroupTab() {
  return (
    <PlaceholderScreen
      title="关联用户组"
      summary="该用户关联的用户组：搜索、分页、移除，并可关联更多用户组。"
    />
  )
}

export function UserPositionTab() {
  return <PlaceholderScreen title="关联岗位" summary="按部门和职位筛选该用户的岗位，表格按部门名称合并。" />
}
