import { ROLE_TYPE } from '@amg/contract'
import type { RoleScreensConfig } from '../../components/role-screens'
import { roleCalls } from '../../components/role-calls'

const LIST = '/rolemanage'

/** 角色管理: every type listed (SPEC.md §3), only type 3 (ordinary) roles editable (SPEC.md §4). */
export const ROLE_SCREENS: RoleScreensConfig = {
  list: LIST,
  addPath: `${LIST}/addrole`,
  infoPath: `${LIST}/roleinfo`,
  scope: 'role',
  titles: { list: '角色管理', add: '新建角色', edit: '修改角色', view: '查看角色', info: '角色信息' },
  description:
    '普通角色在这里维护，管理员只能授出自己拥有的权限；超级管理员和内置角色在这里只能查看，由内置角色管理维护。',
  types: Object.values(ROLE_TYPE),
  editableTypes: [ROLE_TYPE.ordinary],
  newRole: { roleName: '', description: '', authCodes: [] },
  isShow: 'save',
  ...roleCalls(false),
}
