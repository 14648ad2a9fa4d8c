import { Type, type Static } from '@sinclair/typebox'
import { bindSchemas } from './route'
import { groupExportRoutes, positionExportRoutes, roleExportRoutes, stationExportRoutes } from './list-export'
import { RoleListBody } from '../schemas/role'
import { UserGroupListBody } from '../schemas/user-group'
import { StationListBody } from '../schemas/station'
import { PositionListBody } from '../schemas/position'

const XLSX = { produces: ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'] }

/**
 * Each export takes its list's filters as query parameters, under the list's own schemas (the same
 * rules and messages); paging aside. `types` repeats (`types=1&types=3`); one value is one type.
 */
export const RoleExportQuery = Type.Object({
  roleName: RoleListBody.properties.roleName,
  status: RoleListBody.properties.status,
  types: RoleListBody.properties.types,
})
export type RoleExportQuery = Static<typeof RoleExportQuery>

export const GroupExportQuery = Type.Object({
  groupName: UserGroupListBody.properties.groupName,
  description: UserGroupListBody.properties.description,
  status: UserGroupListBody.properties.status,
})
export type GroupExportQuery = Static<typeof GroupExportQuery>

export const StationExportQuery = Type.Object({
  stationName: StationListBody.properties.stationName,
  type: StationListBody.properties.type,
})
export type StationExportQuery = Static<typeof StationExportQuery>

export const PositionExportQuery = Type.Object({
  orgId: PositionListBody.properties.orgId,
  stationId: PositionListBody.properties.stationId,
})
export type PositionExportQuery = Static<typeof PositionExportQuery>

export const listExportSchemas = {
  roleExport: { description: '与角色列表相同的筛选条件', querystring: RoleExportQuery, ...XLSX },
  groupExport: { description: '与用户组列表相同的筛选条件', querystring: GroupExportQuery, ...XLSX },
  stationExport: { description: '与职位列表相同的筛选条件', querystring: StationExportQuery, ...XLSX },
  positionExport: {
    description: '与岗位列表相同的筛选条件；限定数据权限的管理员只导出其范围内部门的岗位',
    querystring: PositionExportQuery,
    ...XLSX,
  },
}

export const listExportApi = bindSchemas(
  { ...roleExportRoutes, ...groupExportRoutes, ...stationExportRoutes, ...positionExportRoutes },
  listExportSchemas,
)
