import type { MenuItemDef } from '../lib/access'

/** Side menu mode (SPEC.md §2: horizontal or vertical, vertical by default) and collapse default. */
export const MENU_MODE: 'horizontal' | 'vertical' = 'vertical'
export const MENU_COLLAPSED_DEFAULT = true

/** A screen of the menu, at /<key>. */
const page = (key: string, label: string, icon: string): MenuItemDef => ({
  key,
  label,
  icon,
  path: `/${key}`,
  show: true,
})
const group = (key: string, label: string, icon: string, children: MenuItemDef[]): MenuItemDef => ({
  key,
  label,
  icon,
  show: true,
  children,
})

/** The one menu definition; the layout filters it by the user's access list (lib/access.ts). */
export const MENU: MenuItemDef[] = [
  { key: 'home', label: '首页', icon: 'home', path: '/body', show: true },
  group('access', '权限管理', 'safety', [
    page('usermanage', '用户管理', 'user'),
    page('rolemanage', '角色管理', 'team'),
    page('adminrolemanage', '内置角色管理', 'crown'),
    page('usergroupmanage', '用户组管理', 'usergroup'),
    page('authmanage', '权限点管理', 'key'),
    // DESIGN.md §10a: each service owns a subtree of the permission tree, so it sits beside it
    page('servicemanage', '应用管理', 'service'),
    // DESIGN.md §16: the keys services call with, often an application's service account's
    page('apikeymanage', 'API 密钥', 'apikey'),
  ]),
  group('organization', '组织管理', 'apartment', [
    page('orgmanage', '部门管理', 'cluster'),
    page('stationmanage', '职位管理', 'idcard'),
    page('positionmanage', '岗位管理', 'solution'),
  ]),
  group('monitor', '系统监控', 'monitor', [
    page('operlog', '操作日志', 'operlog'),
    page('loginlog', '登录日志', 'loginlog'),
    page('online', '在线用户', 'online'),
    page('webhookmanage', 'Webhook 管理', 'webhook'),
  ]),
  // DESIGN.md §14: how hard the system itself is to get into
  group('system', '系统管理', 'setting', [
    page('securitysettings', '安全设置', 'lock'),
    page('directorysync', '目录同步', 'cluster'),
  ]),
  // the seeded catalogue 权限分析 holds this one page: a leaf here, not a submenu of one item
  page('authzanalysis', '权限分析', 'analysis'),
  // DESIGN.md §21: re-certifying who holds which role
  page('accessreview', '权限复核', 'analysis'),
  // DESIGN.md §20: deciding access requests
  group('jit', '临时授权', 'safety', [
    page('approvalcenter', '审批中心', 'solution'),
    page('eligibilitymanage', '临时授权管理', 'safety'),
  ]),
]
