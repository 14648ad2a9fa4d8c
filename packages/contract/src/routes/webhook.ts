import { describeRoutes } from './route'
import type { webhookSchemas } from './webhook.schemas'

/** Webhook endpoints, their delivery log, and the change events pulled by consumers (DESIGN.md §17). */
export const webhookRoutes = describeRoutes<typeof webhookSchemas>()('webhook', {
  list: { method: 'POST', path: '/webhook/list', summary: 'Webhook 列表', readOnly: true },
  insert: { method: 'POST', path: '/webhook/insert', summary: '新建 Webhook' },
  update: { method: 'PUT', path: '/webhook/update', summary: '修改 Webhook' },
  delete: { method: 'DELETE', path: '/webhook/delete', summary: '删除 Webhook' },
  rotateSecret: { method: 'PUT', path: '/webhook/rotate-secret', summary: '轮换 Webhook 密钥' },
  test: { method: 'POST', path: '/webhook/test', summary: '测试 Webhook' },
  deliveries: { method: 'POST', path: '/webhook/deliveries', summary: 'Webhook 投递记录', readOnly: true },
  redeliver: { method: 'PUT', path: '/webhook/redeliver', summary: '重新投递' },
  events: { method: 'GET', path: '/events', summary: '变更事件列表' },
})
