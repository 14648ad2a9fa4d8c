import { Type } from '@sinclair/typebox'
import { Envelope, NullData } from '../schemas/common'
import {
  UserDetail,
  UserGroupListQuery,
  UserGroupPage,
  UserIdQuery,
  UserInsertBody,
  UserListBody,
  UserNameListBody,
  UserPage,
  UserPositionListQuery,
  UserPositionPage,
  UserRelGroupsBody,
  UserRelPositionBody,
  UserRelRoleBody,
  UserRoleListQuery,
  UserRolePage,
  UserSimplePage,
  UserUnRelGroupsBody,
  UserUnRelPositionBody,
  UserUnRelRoleBody,
  UserUpdateBody,
} from '../schemas/user'
import { bindSchemas } from './route'
import { userRoutes } from './user'

export const userSchemas = {
  list: { body: UserListBody, response: { 200: Envelope(UserPage) } },
  nameList: {
    description: '带 userGroupId 或 positionId 时，不含已在该用户组或已担任该岗位的用户；按 id 排序',
    body: UserNameListBody,
    response: { 200: Envelope(UserSimplePage) },
  },
  insert: {
    description: '不填密码时设置为配置的初始密码（INITIAL_USER_PASSWORD）',
    body: UserInsertBody,
    response: { 200: Envelope(Type.Integer({ description: '新用户的 id' })) },
  },
  detail: { querystring: UserIdQuery, response: { 200: Envelope(UserDetail) } },
  update: { body: UserUpdateBody, response: { 200: NullData } },
  delete: { querystring: UserIdQuery, response: { 200: NullData } },
  linkRoles: { body: UserRelRoleBody, response: { 200: NullData } },
  unlinkRole: { body: UserUnRelRoleBody, response: { 200: NullData } },
  linkGroups: {
    description: 'greoupIds（原系统拼写）或 groupIds：以逗号分隔的用户组 id',
    body: UserRelGroupsBody,
    response: { 200: NullData },
  },
  unlinkGroup: { body: UserUnRelGroupsBody, response: { 200: NullData } },
  linkPositions: { body: UserRelPositionBody, response: { 200: NullData } },
  unlinkPosition: { body: UserUnRelPositionBody, response: { 200: NullData } },
  roleList: { querystring: UserRoleListQuery, response: { 200: Envelope(UserRolePage) } },
  groupList: { querystring: UserGroupListQuery, response: { 200: Envelope(UserGroupPage) } },
  positionList: {
    description: 'orgId 过滤包含其下级部门',
    querystring: UserPositionListQuery,
    response: { 200: Envelope(UserPositionPage) },
  },
}

export const userApi = bindSchemas(userRoutes, userSchemas)
