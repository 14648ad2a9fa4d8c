import { describeRoutes } from './route'
import type { stationSchemas } from './station.schemas'

/** Job titles (SPEC.md §7). */
export const stationRoutes = describeRoutes<typeof stationSchemas>()('station', {
  simpleList: { method: 'POST', path: '/station/list/simple', summary: '职位简单列表', readOnly: true },
  list: { method: 'POST', path: '/station/list', summary: '职位列表', readOnly: true },
  insert: { method: 'POST', path: '/station/insert', summary: '新建职位' },
  detail: { method: 'GET', path: '/station/detail', summary: '职位详情' },
  update: { method: 'PUT', path: '/station/update', summary: '修改职位' },
  delete: { method: 'DELETE', path: '/station/delete', summary: '删除职位' },
})
