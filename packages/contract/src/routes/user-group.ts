import { describeRoutes } from './route'
import type { userGroupSchemas } from './user-group.schemas'

/** User groups and their links (SPEC.md §7). */
export const userGroupRoutes = describeRoutes<typeof userGroupSchemas>()('userGroup', {
  list: { method: 'POST', path: '/user_groups/list', summary: '用户组列表', readOnly: true },
  enable: { method: 'PATCH', path: '/user_groups/enable', summary: '启用/禁用用户组' },
  insert: { method: 'POST', path: '/user_groups/insert', summary: '新建用户组' },
  detail: { method: 'GET', path: '/user_groups/detail', summary: '用户组详情' },
  update: { method: 'PUT', path: '/user_groups/update', summary: '修改用户组' },
  delete: { method: 'DELETE', path: '/user_groups/delete', summary: '删除用户组' },
  userList: { method: 'GET', path: '/rel/groups/userlist', summary: '用户组关联的用户' },
  roleList: { method: 'POST', path: '/rel/groups/rolelist', summary: '用户组关联的角色', readOnly: true },
  linkRoles: { method: 'PUT', path: '/rel/user-groups-rel-role', summary: '用户组关联角色' },
  unlinkRoles: { method: 'PUT', path: '/rel/user-groups-un-rel-role', summary: '用户组移除角色' },
  linkUsers: { method: 'PUT', path: '/rel/user-groups-rel-user', summary: '用户组关联用户' },
  unlinkUsers: { method: 'PUT', path: '/rel/user-groups-un-rel-user', summary: '用户组移除用户' },
  nameList: { method: 'POST', path: '/user_groups/namelist', summary: '用户组简单列表', readOnly: true },
})
