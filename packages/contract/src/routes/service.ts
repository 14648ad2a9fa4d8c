import { describeRoutes } from './route'
import type { serviceSchemas } from './service.schemas'

/** Services: other systems whose permissions live here (DESIGN.md §10a). */
export const serviceRoutes = describeRoutes<typeof serviceSchemas>()('service', {
  list: { method: 'POST', path: '/service/list', summary: '服务列表', readOnly: true },
  insert: { method: 'POST', path: '/service/insert', summary: '新建服务' },
  update: { method: 'PUT', path: '/service/update', summary: '修改服务' },
  delete: { method: 'DELETE', path: '/service/delete', summary: '删除服务' },
  // DESIGN.md §16: applications signing in here
  oidcDetail: { method: 'GET', path: '/service/oidc', summary: '单点登录设置详情' },
  oidcSave: { method: 'PUT', path: '/service/oidc', summary: '保存单点登录设置' },
  oidcRotateSecret: { method: 'POST', path: '/service/oidc/rotate-secret', summary: '重置应用密钥' },
  oidcOff: { method: 'DELETE', path: '/service/oidc', summary: '关闭单点登录' },
  oidcRotateKeys: { method: 'POST', path: '/service/oidc/rotate-keys', summary: '轮换签名密钥' },
})
