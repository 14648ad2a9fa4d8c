import { describeRoutes } from './route'
import type { serviceSchemas } from './service.schemas'

/** Services: other systems whose permissions live here (DESIGN.md §10a). */
export const serviceRoutes = describeRoutes<typeof serviceSchemas>()('service', {
  list: { method: 'POST', path: '/service/list', summary: '服务列表', readOnly: true },
  insert: { method: 'POST', path: '/service/insert', summary: '新建服务' },
  update: { method: 'PUT', path: '/service/update', summary: '修改服务' },
  delete: { method: 'DELETE', path: '/service/delete', summary: '删除服务' },
})
