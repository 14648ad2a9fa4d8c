import { describeRoutes } from './route'
import type { positionSchemas } from './position.schemas'

/** 岗位: a department and a job title (SPEC.md §7), and their links. */
export const positionRoutes = describeRoutes<typeof positionSchemas>()('position', {
  list: { method: 'POST', path: '/position/list', summary: '岗位列表', readOnly: true },
  listForOrg: { method: 'POST', path: '/position/list/for/org', summary: '部门的岗位列表', readOnly: true },
  delete: { method: 'DELETE', path: '/position/delete', summary: '删除岗位' },
  batchInsert: { method: 'PUT', path: '/position/batch/insert', summary: '批量新建岗位' },
  enable: { method: 'PATCH', path: '/position/enable', summary: '启用/禁用岗位' },
  linkRoles: { method: 'PUT', path: '/rel/position-rel-role', summary: '岗位关联角色' },
  unlinkRoles: { method: 'PUT', path: '/rel/position-un-rel-role', summary: '岗位移除角色' },
  linkUsers: { method: 'PUT', path: '/rel/position-rel-user', summary: '岗位关联用户' },
  unlinkUsers: { method: 'PUT', path: '/rel/position-un-rel-user', summary: '岗位移除用户' },
  roleList: { method: 'POST', path: '/rel/position/rolelist', summary: '岗位关联的角色', readOnly: true },
  userList: { method: 'GET', path: '/rel/position/userlist', summary: '岗位关联的用户' },
  nameList: { method: 'POST', path: '/position/namelist', summary: '岗位简单列表', readOnly: true },
})
