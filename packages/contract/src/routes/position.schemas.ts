import { Type } from '@sinclair/typebox'
import { Envelope, NullData } from '../schemas/common'
import {
  PositionBatchInsertBody,
  PositionDeleteQuery,
  PositionEnableQuery,
  PositionForOrgBody,
  PositionForOrgPage,
  PositionListBody,
  PositionNameListBody,
  PositionPage,
  PositionRoleLinkBody,
  PositionRoleListQuery,
  PositionSimple,
  PositionUserLinkBody,
  PositionUserListQuery,
} from '../schemas/position'
import { RelRolePage, RelUserPage } from '../schemas/user-group'
import { bindSchemas } from './route'
import { positionRoutes } from './position'

export const positionSchemas = {
  list: {
    description: '按部门筛选时包含其下级部门的岗位；同一部门的岗位相邻',
    body: PositionListBody,
    response: { 200: Envelope(PositionPage) },
  },
  listForOrg: { body: PositionForOrgBody, response: { 200: Envelope(PositionForOrgPage) } },
  delete: {
    description: 'positionIds 以逗号分隔；岗位与其角色、用户关联一并删除',
    querystring: PositionDeleteQuery,
    response: { 200: NullData },
  },
  batchInsert: {
    description: '为部门关联职位；已存在的岗位跳过。返回新建岗位的 id',
    body: PositionBatchInsertBody,
    response: { 200: Envelope(Type.Array(Type.Integer())) },
  },
  enable: { querystring: PositionEnableQuery, response: { 200: NullData } },
  linkRoles: { body: PositionRoleLinkBody, response: { 200: NullData } },
  unlinkRoles: { body: PositionRoleLinkBody, response: { 200: NullData } },
  linkUsers: { body: PositionUserLinkBody, response: { 200: NullData } },
  unlinkUsers: { body: PositionUserLinkBody, response: { 200: NullData } },
  roleList: { querystring: PositionRoleListQuery, response: { 200: Envelope(RelRolePage) } },
  userList: { querystring: PositionUserListQuery, response: { 200: Envelope(RelUserPage) } },
  nameList: {
    description:
      '按部门筛选时包含其下级部门；带 userId 时只返回该用户尚未担任的岗位（用户“关联岗位”弹框的候选项）',
    body: PositionNameListBody,
    response: { 200: Envelope(Type.Array(PositionSimple)) },
  },
}

export const positionApi = bindSchemas(positionRoutes, positionSchemas)
