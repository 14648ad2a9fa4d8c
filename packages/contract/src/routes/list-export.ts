import { describeRoutes } from './route'
import type { listExportSchemas } from './list-export.schemas'

type S = typeof listExportSchemas

/** 导出 on the list screens (DESIGN.md §15): each list as a workbook, streamed. */
export const roleExportRoutes = describeRoutes<Pick<S, 'roleExport'>>()('role', {
  roleExport: { method: 'GET', path: '/role/export', summary: '导出角色' },
})
export const groupExportRoutes = describeRoutes<Pick<S, 'groupExport'>>()('userGroup', {
  groupExport: { method: 'GET', path: '/user_groups/export', summary: '导出用户组' },
})
export const stationExportRoutes = describeRoutes<Pick<S, 'stationExport'>>()('station', {
  stationExport: { method: 'GET', path: '/station/export', summary: '导出职位' },
})
export const positionExportRoutes = describeRoutes<Pick<S, 'positionExport'>>()('position', {
  positionExport: { method: 'GET', path: '/position/export', summary: '导出岗位' },
})
