import { describeRoutes } from './route'
import type { accessRequestSchemas, eligibilitySchemas } from './access-request.schemas'

/**
 * Eligibility (DESIGN.md §20): granting needs the power to link the role; one's own list and
 * activation need only a session (the service checks the eligibility is the caller's).
 */
export const eligibilityRoutes = describeRoutes<typeof eligibilitySchemas>()('eligibility', {
  insert: { method: 'POST', path: '/eligibility/insert', summary: '新建临时授权' },
  list: {
    method: 'POST',
    path: '/eligibility/list',
    summary: '临时授权列表',
    readOnly: true,
    access: 'session',
  },
  delete: { method: 'DELETE', path: '/eligibility/delete', summary: '删除临时授权' },
  activate: { method: 'POST', path: '/eligibility/activate', summary: '激活临时授权', access: 'session' },
})

/** Access requests (DESIGN.md §20): asking, one's own box and cancelling need a session; deciding needs the power. */
export const accessRequestRoutes = describeRoutes<typeof accessRequestSchemas>()('accessRequest', {
  insert: { method: 'POST', path: '/access-request/insert', summary: '提交权限申请', access: 'session' },
  list: {
    method: 'POST',
    path: '/access-request/list',
    summary: '权限申请列表',
    readOnly: true,
    access: 'session',
  },
  approve: { method: 'PUT', path: '/access-request/approve', summary: '批准权限申请' },
  reject: { method: 'PUT', path: '/access-request/reject', summary: '驳回权限申请' },
  cancel: { method: 'PUT', path: '/access-request/cancel', summary: '撤回权限申请', access: 'session' },
  requestable: {
    method: 'POST',
    path: '/access-request/requestable',
    summary: '可申请的角色',
    readOnly: true,
    access: 'session',
  },
  myRoles: { method: 'GET', path: '/access-request/my-roles', summary: '我的角色', access: 'session' },
})
