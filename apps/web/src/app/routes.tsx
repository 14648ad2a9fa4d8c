import type { ComponentType } from 'react'
import { Navigate, type NonIndexRouteObject, type RouteObject } from 'react-router'
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
  DirectorySyncPage,
  PersonalCenterPage,
  ReviewItemsPage,
  ReviewListPage,
  MyAccessPage,
  ApprovalCenterPage,
  EligibilityManagePage,
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

/** A route of a screen: always at a path. */
type ScreenRoute = NonIndexRouteObject & { path: string }

/** A screen at `path` with its breadcrumb trail. */
const page = (path: string, Page: ComponentType, ...trail: Crumb[]): ScreenRoute => ({
  path,
  element: <Page />,
  handle: crumbs(...trail),
})
/** A record's screen, whose last crumb is the record's name (its `title` parameter) or `fallback`. */
const recordPage = (path: string, Page: ComponentType, parent: Crumb, fallback: string): ScreenRoute => ({
  path,
  element: <Page />,
  handle: { crumbs: withTitle(parent, fallback) },
})
/** A screen with tabs below its address: the bare address opens the first tab, keeping the query. */
const withTabs = (screen: ScreenRoute, ...list: [path: string, Tab: ComponentType][]): ScreenRoute => ({
  ...screen,
  children: [
    { index: true, element: <RedirectKeepQuery to={`${screen.path}/${list[0][0]}`} /> },
    ...list.map(([path, Tab]) => ({ path, element: <Tab /> })),
  ],
})

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
      page('/body', WelcomePage),

      page('/usermanage', UserListPage, USER),
      withTabs(
        recordPage('/usermanage/userinfo', UserInfoPage, USER, '用户信息'),
        ['userbaseinfo', UserBaseInfoTab],
        ['roleformbyuser', UserRoleTab],
        ['usergroupformbyuser', UserGroupTab],
        ['positionformbyuser', UserPositionTab],
      ),
      page('/usermanage/adduser', UserAddPage, USER, { title: '新建用户' }),

      {
        ...page('/authmanage', AuthManagePage, AUTH),
        children: [
          { index: true, element: <Navigate to="/authmanage/addform" replace /> },
          page('addform', AuthAddFormPage, AUTH, { title: '新增权限' }),
          page('editform', AuthEditFormPage, AUTH, { title: '修改权限' }),
        ],
      },

      page('/rolemanage', RoleListPage, ROLE),
      recordPage('/rolemanage/roleinfo', RoleInfoPage, ROLE, '角色信息'),
      page('/rolemanage/addrole', RoleAddPage, ROLE, { title: '新建角色' }),

      page('/usergroupmanage', UserGroupListPage, GROUP),
      page('/usergroupmanage/addusergroup', UserGroupAddPage, GROUP, { title: '新建用户组' }),
      recordPage('/usergroupmanage/usergroupinfo', UserGroupInfoPage, GROUP, '用户组信息'),

      {
        ...page('/orgmanage', OrgManagePage, ORG),
        children: [
          { index: true, element: <Navigate to="/orgmanage/orgaddform" replace /> },
          page('orgaddform', OrgAddFormPage, ORG, { title: '新增部门' }),
          {
            path: 'orgeditform',
            element: <RedirectKeepQuery to="/orgmanage/editform/orgbaseinfo" />,
            // its own trail too, so that no sub-screen shows the list's crumb as plain text, even for a moment
            handle: crumbs(ORG, { title: '修改部门' }),
          },
          withTabs(
            page('/orgmanage/editform', OrgEditFormPage, ORG, { title: '修改部门' }),
            ['orgbaseinfo', OrgBaseInfoTab],
            ['orgrelstation', OrgRelStationTab],
          ),
        ],
      },

      page('/stationmanage', StationListPage, STATION),
      page('/stationmanage/addstation', StationAddPage, STATION, { title: '新建职位' }),
      page('/stationmanage/editstation', StationEditPage, STATION, { title: '修改职位' }),
      // SPEC.md §2: the view screen's breadcrumb is Home / job title management / 'new job title'.
      page('/stationmanage/viewstation', StationViewPage, STATION, { title: '新建职位' }),

      page('/positionmanage', PositionListPage, POSITION),
      withTabs(
        page('/positionmanage/positioninfo', PositionInfoPage, POSITION, { title: '岗位关联' }),
        ['roleform', PositionRoleTab],
        ['userform', PositionUserTab],
      ),

      page('/adminrolemanage', AdminRoleListPage, ADMIN_ROLE),
      page('/adminrolemanage/adminroleadd', AdminRoleAddPage, ADMIN_ROLE, { title: '新建内置角色' }),
      recordPage('/adminrolemanage/adminroleinfo', AdminRoleInfoPage, ADMIN_ROLE, '内置角色信息'),

      // DESIGN.md §10a: the services behind gateways, one permission namespace each
      page('/servicemanage', ServiceListPage, SERVICE),
      // DESIGN.md §16: the keys of services that cannot do OAuth
      page('/apikeymanage', ApiKeyListPage, { title: 'API 密钥', path: '/apikeymanage' }),

      // DESIGN.md §9: the audit trail and the online sessions
      page('/operlog', OperationLogPage, MONITOR, { title: '操作日志' }),
      page('/loginlog', LoginLogPage, MONITOR, { title: '登录日志' }),
      page('/online', OnlinePage, MONITOR, { title: '在线用户' }),
      page('/webhookmanage', WebhookListPage, MONITOR, { title: 'Webhook 管理' }),

      // DESIGN.md §10: who may do what, and why
      page('/authzanalysis', AuthzAnalysisPage, { title: '权限分析' }),

      // DESIGN.md §14
      page('/securitysettings', SecuritySettingsPage, { title: '系统管理' }, { title: '安全设置' }),
      page('/personal', PersonalCenterPage, { title: '个人中心' }),
      // DESIGN.md §20
      page('/myaccess', MyAccessPage, { title: '我的权限' }),
      page('/approvalcenter', ApprovalCenterPage, { title: '临时授权' }, { title: '审批中心' }),
      page('/eligibilitymanage', EligibilityManagePage, { title: '临时授权' }, { title: '临时授权管理' }),

      // DESIGN.md §21: access reviews
      page('/accessreview', ReviewListPage, { title: '权限复核' }),
      page(
        '/accessreview/items',
        ReviewItemsPage,
        { title: '权限复核', path: '/accessreview' },
        { title: '复核条目' },
      ),
      // DESIGN.md §22
      page('/directorysync', DirectorySyncPage, { title: '系统管理' }, { title: '目录同步' }),

      page('/404', NotFoundPage, { title: '页面不存在' }),
      page('*', NotFoundPage, { title: '页面不存在' }),
    ],
  },
]
