import type { MenuItemDef } from '../lib/access'

/** Side menu mode (SPEC.md §2: horizontal or vertical, vertical by default) and collapse default. */
export const MENU_MODE: 'horizontal' | 'vertical' = 'vertical'
export const MENU_COLLAPSED_DEFAULT = true

/** The one menu definition; the layout filters it by the user's access list (lib/access.ts). */
export const MENU: MenuItemDef[] = [
  { key: 'home', label: '首页', icon: 'home', path: '/body', show: true },
  {
    key: 'access',
    label: '权限管理',
    icon: 'safety',
    show: true,
    children: [
      { key: 'usermanage', label: '用户管理', icon: 'user', path: '/usermanage', show: true },
      { key: 'rolemanage', label: '角色管理', icon: 'team', path: '/rolemanage', show: true },
      { key: 'adminrolemanage', label: '内置角色管理', icon: 'crown', path: '/adminrolemanage', show: true },
      {
        key: 'usergroupmanage',
        label: '用户组管理',
        icon: 'usergroup',
        path: '/usergroupmanage',
        show: true,
      },
      { key: 'authmanage', label: '权限点管理', icon: 'key', path: '/authmanage', show: true },
      // DESIGN.md §10a: each service owns a subtree of the permission tree, so it sits beside it
      { key: 'servicemanage', label: '应用管理', icon: 'service', path: '/servicemanage', show: true },
      // DESIGN.md §16: the keys services call with, often an application's service account's
      { key: 'apikeymanage', label: 'API 密钥', icon: 'apikey', path: '/apikeymanage', show: true },
    ],
  },
  {
    key: 'organization',
    label: '组织管理',
    icon: 'apartment',
    show: true,
    children: [
      { key: 'orgmanage', label: '部门管理', icon: 'cluster', path: '/orgmanage', show: true },
      { key: 'stationmanage', label: '职位管理', icon: 'idcard', path: '/stationmanage', show: true },
      { key: 'positionmanage', label: '岗位管理', icon: 'solution', path: '/positionmanage', show: true },
    ],
  },
  {
    key: 'monitor',
    label: '系统监控',
    icon: 'monitor',
    show: true,
    children: [
      { key: 'operlog', label: '操作日志', icon: 'operlog', path: '/operlog', show: true },
      { key: 'loginlog', label: '登录日志', icon: 'loginlog', path: '/loginlog', show: true },
      { key: 'online', label: '在线用户', icon: 'online', path: '/online', show: true },
      { key: 'webhookmanage', label: 'Webhook 管理', icon: 'webhook', path: '/webhookmanage', show: true },
    ],
  },
  {
    // DESIGN.md §14: how hard the system itself is to get into
    key: 'system',
    label: '系统管理',
    icon: 'setting',
    show: true,
    children: [
      { key: 'securitysettings', label: '安全设置', icon: 'lock', path: '/securitysettings', show: true },
    ],
  },
  // the seeded catalogue 权限分析 holds this one page: a leaf here, not a submenu of one item
  { key: 'authzanalysis', label: '权限分析', icon: 'analysis', path: '/authzanalysis', show: true },
]
