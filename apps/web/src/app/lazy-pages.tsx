import { lazyScreen } from './lazy-screen'

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

const adminRole = () => import('../features/admin-role/pages')
export const AdminRoleAddPage = lazyScreen(adminRole, 'AdminRoleAddPage')
export const AdminRoleInfoPage = lazyScreen(adminRole, 'AdminRoleInfoPage')
export const AdminRoleListPage = lazyScreen(adminRole, 'AdminRoleListPage')

const auth = () => import('../features/auth/pages')
export const AuthAddFormPage = lazyScreen(auth, 'AuthAddFormPage')
export const AuthEditFormPage = lazyScreen(auth, 'AuthEditFormPage')
export const AuthManagePage = lazyScreen(auth, 'AuthManagePage')

const authzAnalysis = () => import('../features/authz-analysis/pages')
export const AuthzAnalysisPage = lazyScreen(authzAnalysis, 'AuthzAnalysisPage')

// the home page's cards: the heading is in the first download, the cards come with their own chunk
export const HomeOverview = lazyScreen(() => import('../features/home/pages'), 'HomeOverview')

const monitor = () => import('../features/monitor/pages')
export const LoginLogPage = lazyScreen(monitor, 'LoginLogPage')
export const OnlinePage = lazyScreen(monitor, 'OnlinePage')
export const OperationLogPage = lazyScreen(monitor, 'OperationLogPage')

const org = () => import('../features/org/pages')
export const OrgAddFormPage = lazyScreen(org, 'OrgAddFormPage')
export const OrgBaseInfoTab = lazyScreen(org, 'OrgBaseInfoTab')
export const OrgEditFormPage = lazyScreen(org, 'OrgEditFormPage')
export const OrgManagePage = lazyScreen(org, 'OrgManagePage')
export const OrgRelStationTab = lazyScreen(org, 'OrgRelStationTab')

const position = () => import('../features/position/pages')
export const PositionInfoPage = lazyScreen(position, 'PositionInfoPage')
export const PositionListPage = lazyScreen(position, 'PositionListPage')
export const PositionRoleTab = lazyScreen(position, 'PositionRoleTab')
export const PositionUserTab = lazyScreen(position, 'PositionUserTab')

const role = () => import('../features/role/pages')
export const RoleAddPage = lazyScreen(role, 'RoleAddPage')
export const RoleInfoPage = lazyScreen(role, 'RoleInfoPage')
export const RoleListPage = lazyScreen(role, 'RoleListPage')

const service = () => import('../features/service/pages')
export const ServiceListPage = lazyScreen(service, 'ServiceListPage')

const apiKey = () => import('../features/apikey/pages')
export const ApiKeyListPage = lazyScreen(apiKey, 'ApiKeyListPage')

const settings = () => import('../features/settings/pages')
export const SecuritySettingsPage = lazyScreen(settings, 'SecuritySettingsPage')

const webhook = () => import('../features/webhook/pages')
export const WebhookListPage = lazyScreen(webhook, 'WebhookListPage')

const station = () => import('../features/station/pages')
export const StationAddPage = lazyScreen(station, 'StationAddPage')
export const StationEditPage = lazyScreen(station, 'StationEditPage')
export const StationListPage = lazyScreen(station, 'StationListPage')
export const StationViewPage = lazyScreen(station, 'StationViewPage')

const userGroup = () => import('../features/user-group/pages')
export const UserGroupAddPage = lazyScreen(userGroup, 'UserGroupAddPage')
export const UserGroupInfoPage = lazyScreen(userGroup, 'UserGroupInfoPage')
export const UserGroupListPage = lazyScreen(userGroup, 'UserGroupListPage')

const user = () => import('../features/user/pages')
export const UserAddPage = lazyScreen(user, 'UserAddPage')
export const UserBaseInfoTab = lazyScreen(user, 'UserBaseInfoTab')
export const UserGroupTab = lazyScreen(user, 'UserGroupTab')
export const UserInfoPage = lazyScreen(user, 'UserInfoPage')
export const UserListPage = lazyScreen(user, 'UserListPage')
export const PersonalCenterPage = lazyScreen(user, 'PersonalCenterPage')
export const UserPositionTab = lazyScreen(user, 'UserPositionTab')
export const UserRoleTab = lazyScreen(user, 'UserRoleTab')

const review = () => import('../features/review/pages')
export const ReviewListPage = lazyScreen(review, 'ReviewListPage')
export const ReviewItemsPage = lazyScreen(review, 'ReviewItemsPage')
// DESIGN.md §20: 我的权限 and 审批中心
const access = () => import('../features/access/pages')
export const MyAccessPage = lazyScreen(access, 'MyAccessPage')
export const ApprovalCenterPage = lazyScreen(access, 'ApprovalCenterPage')
export const EligibilityManagePage = lazyScreen(access, 'EligibilityManagePage')
const directory = () => import('../features/directory/pages')
export const DirectorySyncPage = lazyScreen(directory, 'DirectorySyncPage')
