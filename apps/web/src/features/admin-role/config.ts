import { ROLE_TYPE } from '@amg/contract'
import type { RoleScreensConfig } from '../../components/role-screens'
import { roleCalls } from '../../components/role-calls'

const LIST = '/adminrolemanage'

/** SPEC.md §9: the built-in role list's type filter; empty means [1,2]. */
const DEFAULT_TYPES = [ROLE_TYPE.superAdmin, ROLE_TYPE.builtIn]

/** 内置角色管理: super-admin and built-in roles; type 1 (super admin) is locked against edit and delete (SPEC.md §4). */
export const ADMIN_ROLE_SCREENS: RoleScreensConfig = {
  list: LIST,
  addPath: `${LIST}/adminroleadd`,
  infoPath: `${LIST}/adminroleinfo`,
  scope: 'admin-role',
  titles: {
    list: '内置角色管理',
    add: '新建内置角色',
    edit: '修改内置角色',
    view: '查看内置角色',
    info: '内置角色信息',
  },
  description:
    '内置角色是系统管理员维护的管理角色。超级管理员拥有全部权限，不能修改或删除；其他内置角色按需配置权限。普通角色请在角色管理中维护。',
  types: DEFAULT_TYPES,
  defaultTypes: DEFAULT_TYPES,
  editableTypes: [ROLE_TYPE.builtIn, ROLE_TYPE.ordinary],
  /** SPEC.md §9: a new built-in role is type 2, status 1. */
  newRole: { roleName: '', type: ROLE_TYPE.builtIn, status: 1, description: '', authCodes: [] },
  isShow: 'type',
  ...roleCalls(true),
}
