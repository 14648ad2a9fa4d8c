import { describeRoutes } from './route'
import type { reviewSchemas, usageSchemas } from './review.schemas'

/** Access reviews (DESIGN.md §21). The inbox is the caller's own: a session is enough. */
export const reviewRoutes = describeRoutes<typeof reviewSchemas>()('review', {
  list: { method: 'POST', path: '/review/list', summary: '权限复核列表', readOnly: true },
  inbox: { method: 'POST', path: '/review/inbox', summary: '我的复核', readOnly: true, access: 'session' },
  insert: { method: 'POST', path: '/review/insert', summary: '新建权限复核' },
  items: { method: 'POST', path: '/review/items', summary: '复核条目', readOnly: true },
  decide: { method: 'PUT', path: '/review/decide', summary: '复核决定' },
  close: { method: 'PUT', path: '/review/close', summary: '关闭并执行复核' },
  export: { method: 'GET', path: '/review/export', summary: '导出复核结果' },
})

/** The permission nodes each user used lately (DESIGN.md §21). */
export const usageRoutes = describeRoutes<typeof usageSchemas>()('authz', {
  usage: { method: 'GET', path: '/authz/usage', summary: '权限使用记录' },
})
