import { describeRoutes } from './route'
import type { userSchemas } from './user.schemas'

/** Users and their links (SPEC.md §7); the own-account calls are the session's. */
export const userRoutes = describeRoutes<typeof userSchemas>()('user', {
  list: { method: 'POST', path: '/user/list', summary: '用户列表', readOnly: true },
  // a read, though POST (as the other namelist calls): the group and position "link users" pickers
  nameList: { method: 'POST', path: '/user/namelist', summary: '可关联的用户列表', readOnly: true },
  insert: { method: 'POST', path: '/user/insert', summary: '新建用户' },
  detail: { method: 'GET', path: '/user/detail', summary: '用户详情' },
  update: { method: 'PUT', path: '/user/update', summary: '修改用户' },
  delete: { method: 'DELETE', path: '/user/delete', summary: '删除用户' },
  linkRoles: { method: 'PUT', path: '/rel/user-rel-role', summary: '用户关联角色' },
  unlinkRole: { method: 'PUT', path: '/rel/user-un-rel-role', summary: '用户移除角色' },
  linkGroups: { method: 'PUT', path: '/rel/user-rel-groups', summary: '用户关联用户组' },
  unlinkGroup: { method: 'PUT', path: '/rel/user-un-rel-groups', summary: '用户移除用户组' },
  linkPositions: { method: 'PUT', path: '/rel/user-rel-position', summary: '用户关联岗位' },
  unlinkPosition: { method: 'PUT', path: '/rel/user-un-rel-position', summary: '用户移除岗位' },
  // the tab lists: reads, though POST
  roleList: { method: 'POST', path: '/rel/user/rolelist', summary: '用户的角色列表', readOnly: true },
  groupList: { method: 'POST', path: '/rel/user/grouplist', summary: '用户的用户组列表', readOnly: true },
  positionList: { method: 'POST', path: '/rel/user/positionlist', summary: '用户的岗位列表', readOnly: true },
})
