import { describeRoutes } from './route'
import type { roleSchemas } from './role.schemas'

/** Roles (SPEC.md §7): ordinary roles (type 3) under /role, built-in and super-admin roles under /role/admin. */
export const roleRoutes = describeRoutes<typeof roleSchemas>()('role', {
  nameList: { method: 'POST', path: '/role/namelist', summary: '角色简单列表', readOnly: true },
  list: { method: 'POST', path: '/role/listall', summary: '角色分页列表', readOnly: true },
  detail: { method: 'GET', path: '/role/detail', summary: '角色详情' },
  insert: { method: 'POST', path: '/role/insert', summary: '新建普通角色' },
  update: { method: 'PUT', path: '/role/update', summary: '修改普通角色' },
  delete: { method: 'DELETE', path: '/role/delete', summary: '删除普通角色' },
  adminInsert: { method: 'POST', path: '/role/admin/insert', summary: '新建内置角色' },
  adminUpdate: { method: 'PUT', path: '/role/admin/update', summary: '修改内置角色' },
  adminDelete: { method: 'DELETE', path: '/role/admin/delete', summary: '删除内置角色' },
})
