import { describeRoutes } from './route'
import type { authzSchemas } from './authz.schemas'

/** The methods a gateway's forward-auth call may use. */
export const FORWARD_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'] as const

/** Answering other systems' questions (DESIGN.md §10); every route is a read. */
export const authzRoutes = describeRoutes<typeof authzSchemas>()('authz', {
  // every method: the gateway asks with the method of the call it forwards
  forward: {
    method: FORWARD_METHODS,
    path: '/authz/forward',
    summary: '网关转发鉴权',
    readOnly: true,
    access: 'public',
  },
  forwardService: {
    method: FORWARD_METHODS,
    path: '/authz/forward/:service',
    summary: '网关转发鉴权（指定服务）',
    readOnly: true,
    access: 'public',
  },
  check: { method: 'POST', path: '/authz/check', summary: '检查权限', readOnly: true, access: 'session' },
  checkBatch: {
    method: 'POST',
    path: '/authz/check-batch',
    summary: '批量检查权限',
    readOnly: true,
    access: 'session',
  },
  explain: { method: 'POST', path: '/authz/explain', summary: '权限来源解释', readOnly: true },
  effective: { method: 'GET', path: '/authz/effective', summary: '用户有效权限' },
  whoCan: { method: 'POST', path: '/authz/who-can', summary: '谁能访问', readOnly: true },
  roleImpact: { method: 'POST', path: '/authz/role-impact', summary: '角色变更影响预览', readOnly: true },
})
