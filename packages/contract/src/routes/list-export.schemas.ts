import { bindSchemas } from './route'
import { groupExportRoutes, positionExportRoutes, roleExportRoutes, stationExportRoutes } from './list-export'

const XLSX = { produces: ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'] }

export const listExportSchemas = {
  roleExport: XLSX,
  groupExport: XLSX,
  stationExport: XLSX,
  positionExport: { description: '限定数据权限的管理员只导出其范围内部门的岗位', ...XLSX },
}

export const listExportApi = bindSchemas(
  { ...roleExportRoutes, ...groupExportRoutes, ...stationExportRoutes, ...positionExportRoutes },
  listExportSchemas,
)
