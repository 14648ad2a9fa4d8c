import { describeRoutes } from './route'
import type { orgSchemas } from './org.schemas'

/** Departments (SPEC.md §7). */
export const orgRoutes = describeRoutes<typeof orgSchemas>()('org', {
  tree: { method: 'GET', path: '/org/tree', summary: '部门树' },
  detail: { method: 'GET', path: '/org/detail', summary: '部门详情' },
  insert: { method: 'POST', path: '/org/insert', summary: '新建部门' },
  update: { method: 'PUT', path: '/org/update', summary: '修改部门' },
  delete: { method: 'DELETE', path: '/org/delete', summary: '删除部门' },
})
