import { describeRoutes } from './route'
import type { authSchemas } from './auth.schemas'

/** The permission tree and the back-end catalogue (SPEC.md §7 "Auth"). */
export const authRoutes = describeRoutes<typeof authSchemas>()('auth', {
  tree: { method: 'POST', path: '/auth/tree', summary: '权限树', readOnly: true },
  detail: { method: 'GET', path: '/auth/detail', summary: '权限详情' },
  insert: { method: 'POST', path: '/auth/insert', summary: '新建权限' },
  update: { method: 'PUT', path: '/auth/update', summary: '修改权限' },
  delete: { method: 'DELETE', path: '/auth/delete', summary: '删除权限' },
  backEnd: { method: 'GET', path: '/auth/get-all-back-end', summary: '后端接口目录' },
})
