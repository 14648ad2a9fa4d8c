import { lazyScreen, lazyScreens } from './lazy-screen'

/**
 * The screens loaded apart from the first download (DESIGN.md §12: the sign-in page and the shell
 * load first, every screen family is its own chunk). The route table imports the screens from here
 * under their usual names.
 */

// the signed-in frame (menu, header, breadcrumbs): the sign-in page does not need it, and it is
// fetched while the user types their password, or together with the screen on a signed-in visit
export const AppLayout = lazyScreen(() => import('./layout'), 'AppLayout')

// the 404 screen's illustration is large and rarely seen
export const NotFoundPage = lazyScreen(() => import('./not-found-page'), 'NotFoundPage')
// so is the 403 screen's
export const ForbiddenPage = lazyScreen(() => import('./forbidden-page'), 'ForbiddenPage')

export const { AdminRoleAddPage, AdminRoleInfoPage, AdminRoleListPage } = lazyScreens(
  () => import('../features/admin-role/pages'),
)

export const { AuthAddFormPage, AuthEditFormPage, AuthManagePage } = lazyScreens(
  () => import('../features/auth/pages'),
)

export const { AuthzAnalysisPage } = lazyScreens(() => import('../features/authz-analysis/pages'))

// the home page's cards: the heading is in the first download, the cards come with their own chunk
export const { HomeOverview } = lazyScreens(() => import('../features/home/pages'))

export const { LoginLogPage, OnlinePage, OperationLogPage } = lazyScreens(
  () => import('../features/monitor/pages'),
)

export const { OrgAddFormPage, OrgBaseInfoTab, OrgEditFormPage, OrgManagePage, OrgRelStationTab } =
  lazyScreens(() => import('../features/org/pages'))

export const { PositionInfoPage, PositionListPage, PositionRoleTab, PositionUserTab } = lazyScreens(
  () => import('../features/position/pages'),
)

export const { RoleAddPage, RoleInfoPage, RoleListPage } = lazyScreens(() => import('../features/role/pages'))

export const { ServiceListPage } = lazyScreens(() => import('../features/service/pages'))

export const { ApiKeyListPage } = lazyScreens(() => import('../features/apikey/pages'))

export const { SecuritySettingsPage } = lazyScreens(() => import('../features/settings/pages'))

export const { WebhookListPage } = lazyScreens(() => import('../features/webhook/pages'))

export const { StationAddPage, StationEditPage, StationListPage, StationViewPage } = lazyScreens(
  () => import('../features/station/pages'),
)

export const { UserGroupAddPage, UserGroupInfoPage, UserGroupListPage } = lazyScreens(
  () => import('../features/user-group/pages'),
)

export const {
  UserAddPage,
  UserBaseInfoTab,
  UserGroupTab,
  UserInfoPage,
  UserListPage,
  PersonalCenterPage,
  UserPositionTab,
  UserRoleTab,
} = lazyScreens(() => import('../features/user/pages'))

export const { ReviewListPage, ReviewItemsPage } = lazyScreens(() => import('../features/review/pages'))

// DESIGN.md §20: 我的权限 and 审批中心
export const { MyAccessPage, ApprovalCenterPage, EligibilityManagePage } = lazyScreens(
  () => import('../features/access/pages'),
)

export const { DirectorySyncPage } = lazyScreens(() => import('../features/directory/pages'))
