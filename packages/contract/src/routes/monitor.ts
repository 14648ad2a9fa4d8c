import { describeRoutes } from './route'
import type { monitorSchemas } from './monitor.schemas'

/** The operation log, the login log and the online sessions (DESIGN.md §9). */
export const monitorRoutes = describeRoutes<typeof monitorSchemas>()('monitor', {
  operationList: { method: 'POST', path: '/log/operation/list', summary: '操作日志列表', readOnly: true },
  operationDetail: { method: 'GET', path: '/log/operation/detail', summary: '操作日志详情' },
  operationExport: { method: 'GET', path: '/log/operation/export', summary: '导出操作日志' },
  loginList: { method: 'POST', path: '/log/login/list', summary: '登录日志列表', readOnly: true },
  onlineList: { method: 'POST', path: '/session/online/list', summary: '在线会话列表', readOnly: true },
  revoke: { method: 'DELETE', path: '/session/online/revoke', summary: '强制下线' },
})
