import { Navigate, type RouteObject } from 'react-router'
// each screen family is loaded on its first visit (DESIGN.md §12)
import {
  AdminRoleAddPage,
  ApiKeyListPage,
  AppLayout,
  AdminRoleInfoPage,
  AdminRoleListPage,
  AuthAddFormPage,
  AuthEditFormPage,
  AuthManagePage,
  AuthzAnalysisPage,
  LoginLogPage,
  NotFoundPage,
  OnlinePage,
  OperationLogPage,
  OrgAddFormPage,
  OrgBaseInfoTab,
  OrgEditFormPage,
  OrgManagePage,
  OrgRelStationTab,
  PositionInfoPage,
  PositionListPage,
  PositionRoleTab,
  PositionUserTab,
  RoleAddPage,
  RoleInfoPage,
  RoleListPage,
  ServiceListPage,
  StationAddPage,
  StationEditPage,
  StationListPage,
  StationViewPage,
  UserAddPage,
  UserBaseInfoTab,
  UserGroupAddPage,
  UserGroupInfoPage,
  UserGroupListPage,
  UserGroupTab,
  UserInfoPage,
  UserListPage,
  UserPositionTab,
  UserRoleTab,
  WebhookListPage,
  SecuritySettingsPage,
  PersonalCenterPage,
} from './lazy-pages'
import type { Crumb, ScreenHandle } from './breadcrumbs'
import { LoginPage } from './login-page'
import { OidcLoginPage } from './oidc-login-page'
import { RedirectKeepQuery } from './redirect'
import { WelcomePage } from './welcome-page'

const crumbs = (...trail: Crumb[]): ScreenHandle => ({ crumbs: trail })
const withTitle =
  (parent: Crumb, fallback: string) =>
  (search: URLSearchParams): Crumb[] => [parent, { title: search.get('title') || fallback }]

const USER: Crumb = { title: '用户管理', path: '/usermanage' }
const AUTH: Crumb = { title: '权限点管理', path: '/authmanage' }
const ROLE: Crumb = { title: '角色管理', path: '/rolemanage' }
const GROUP: Crumb = { title: '用户组管理', path: '/usergroupmanage' }
const ORG: Crumb = { title: '部门管理', path: '/orgmanage' }
const STATION: Crumb = { title: '职位管理', path: '/stationmanage' }
const POSITION: Crumb = { title: '岗位管理', path: '/positionmanage' }
const ADMIN_ROLE: Crumb = { title: '内置角色管理', path: '/adminrolemanage' }
const SERVICE: Crumb = { title: '应用管理', path: '/servicemanage' }
const MONITOR: Crumb = { title: '系统监控' }

/**
 * The route table of SPEC.md §2. Every screen below the layout requires a session: the (auth)
 * routes and the screens reached from them send a signed-out visitor to '/'.
 */
export const routes: RouteObject[] = [
  { path: '/', element: <LoginPage /> },
  // DESIGN.md §16: single sign-on login and consent, outside the signed-in layout
  { path: '/oidc-login/:uid', element: <OidcLoginPage /> },
  {
    element: <AppLayout />,
    children: [
      { path: '/body', element: <WelcomePage />, handle: crumbs() },

      { path: '/usermanage', element: <UserListPage />, handle: crumbs(USER) },
      {
        path: '/usermanage/userinfo',
        element: <UserInfoPage />,
        handle: { crumbs: withTitle(USER, '用户信息') },
        children: [
          { index: true, element: <RedirectKeepQuery to="/usermanage/userinfo/userbaseinfo" /> },
          { path: 'userbaseinfo', element: <UserBaseInfoTab /> },
          { path: 'roleformbyuser', element: <UserRoleTab /> },
          { path: 'usergroupformbyuser', element: <UserGroupTab /> },
          { path: 'positionformbyuser', element: <UserPositionTab /> },
        ],
      },
      { path: '/usermanage/adduser', element: <UserAddPage />, handle: crumbs(USER, { title: '新建用户' }) },

      {
        path: '/authmanage',
        element: <AuthManagePage />,
        handle: crumbs(AUTH),
        children: [
          { index: true, element: <Navigate to="/authmanage/addform" replace /> },
          { path: 'addform', element: <AuthAddFormPage />, handle: crumbs(AUTH, { title: '新增权限' }) },
          { path: 'editform', element: <AuthEditFormPage />, handle: crumbs(AUTH, { title: '修改权限' }) },
        ],
      },

      { path: '/rolemanage', element: <RoleListPage />, handle: crumbs(ROLE) },
      {
        path: '/rolemanage/roleinfo',
        element: <RoleInfoPage />,
        handle: { crumbs: withTitle(ROLE, '角色信息') },
      },
      { path: '/rolemanage/addrole', element: <RoleAddPage />, handle: crumbs(ROLE, { title: '新建角色' }) },

      { path: '/usergroupmanage', element: <UserGroupListPage />, handle: crumbs(GROUP) },
      {
        path: '/usergroupmanage/addusergroup',
        element: <UserGroupAddPage />,
        handle: crumbs(GROUP, { title: '新建用户组' }),
      },
      {
        path: '/usergroupmanage/usergroupinfo',
        element: <UserGroupInfoPage />,
        handle: { crumbs: withTitle(GROUP, '用户组信息') },
      },

      {
        path: '/orgmanage',
        element: <OrgManagePage />,
        handle: crumbs(ORG),
        children: [
          { index: true, element: <Navigate to="/orgmanage/orgaddform" replace /> },
          { path: 'orgaddform', element: <OrgAddFormPage />, handle: crumbs(ORG, { title: '新增部门' }) },
          {
            path: 'orgeditform',
            element: <RedirectKeepQuery to="/orgmanage/editform/orgbaseinfo" />,
            // its own trail too, so that no sub-screen shows the list's crumb as plain text, even for a moment
            handle: crumbs(ORG, { title: '修改部门' }),
          },
          {
            path: 'editform',
            element: <OrgEditFormPage />,
            handle: crumbs(ORG, { title: '修改部门' }),
            children: [
              { index: true, element: <RedirectKeepQuery to="/orgmanage/editform/orgbaseinfo" /> },
              { path: 'orgbaseinfo', element: <OrgBaseInfoTab /> },
              { path: 'orgrelstation', element: <OrgRelStationTab /> },
            ],
          },
        ],
      },

      { path: '/stationmanage', element: <StationListPage />, handle: crumbs(STATION) },
      {
        path: '/stationmanage/addstation',
        element: <StationAddPage />,
        handle: crumbs(STATION, { title: '新建职位' }),
      },
      {
        path: '/stationmanage/editstation',
        element: <StationEditPage />,
        handle: crumbs(STATION, { title: '修改职位' }),
      },
      // SPEC.md §2: the view screen's breadcrumb is Home / job title management / 'new job title'.
      {
        path: '/stationmanage/viewstation',
        element: <StationViewPage />,
        handle: crumbs(STATION, { title: '新建职位' }),
      },

      { path: '/positionmanage', element: <PositionListPage />, handle: crumbs(POSITION) },
      {
        path: '/positionmanage/positioninfo',
        element: <PositionInfoPage />,
        handle: crumbs(POSITION, { title: '岗位关联' }),
        children: [
          { index: true, element: <RedirectKeepQuery to="/positionmanage/positioninfo/roleform" /> },
          { path: 'roleform', element: <PositionRoleTab /> },
          { path: 'userform', element: <PositionUserTab /> },
        ],
      },

      { path: '/adminrolemanage', element: <AdminRoleListPage />, handle: crumbs(ADMIN_ROLE) },
      {
        path: '/adminrolemanage/adminroleadd',
        element: <AdminRoleAddPage />,
        handle: crumbs(ADMIN_ROLE, { title: '新建内置角色' }),
      },
      {
        path: '/adminrolemanage/adminroleinfo',
        element: <AdminRoleInfoPage />,
        handle: { crumbs: withTitle(ADMIN_ROLE, '内置角色信息') },
      },

      // DESIGN.md §10a: the services behind gateways, one permission namespace each
      { path: '/servicemanage', element: <ServiceListPage />, handle: crumbs(SERVICE) },
      // DESIGN.md §16: the keys of services that cannot do OAuth
      {
        path: '/apikeymanage',
        element: <ApiKeyListPage />,
        handle: crumbs({ title: 'API 密钥', path: '/apikeymanage' }),
      },

      // DESIGN.md §9: the audit trail and the online sessions
      { path: '/operlog', element: <OperationLogPage />, handle: crumbs(MONITOR, { title: '操作日志' }) },
      { path: '/loginlog', element: <LoginLogPage />, handle: crumbs(MONITOR, { title: '登录日志' }) },
      { path: '/online', element: <OnlinePage />, handle: crumbs(MONITOR, { title: '在线用户' }) },
      {
        path: '/webhookmanage',
        element: <WebhookListPage />,
        handle: crumbs(MONITOR, { title: 'Webhook 管理' }),
      },

      // DESIGN.md §10: who may do what, and why
      { path: '/authzanalysis', element: <AuthzAnalysisPage />, handle: crumbs({ title: '权限分析' }) },

      // DESIGN.md §14
      {
        path: '/securitysettings',
        element: <SecuritySettingsPage />,
        handle: crumbs({ title: '系统管理' }, { title: '安全设置' }),
      },
      { path: '/personal', element: <PersonalCenterPage />, handle: crumbs({ title: '个人中心' }) },

      { path: '/404', element: <NotFoundPage />, handle: crumbs({ title: '页面不存在' }) },
      { path: '*', element: <NotFoundPage />, handle: crumbs({ title: '页面不存在' }) },
    ],
  },
]
