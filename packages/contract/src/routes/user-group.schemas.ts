import { Type } from '@sinclair/typebox'
import { Envelope, NullData } from '../schemas/common'
import {
  GroupRoleLinkBody,
  GroupRoleListQuery,
  GroupUserLinkBody,
  GroupUserListQuery,
  RelRolePage,
  RelUserPage,
  UserGroupDetail,
  UserGroupEnableQuery,
  UserGroupIdQuery,
  UserGroupInsertBody,
  UserGroupListBody,
  UserGroupListPage,
  UserGroupNameListBody,
  UserGroupSimple,
  UserGroupUpdateBody,
} from '../schemas/user-group'
import { bindSchemas } from './route'
import { userGroupRoutes } from './user-group'

export const userGroupSchemas = {
  list: { body: UserGroupListBody, response: { 200: Envelope(UserGroupListPage) } },
  enable: { querystring: UserGroupEnableQuery, response: { 200: NullData } },
  insert: { body: UserGroupInsertBody, response: { 200: Envelope(Type.Integer()) } },
  detail: { querystring: UserGroupIdQuery, response: { 200: Envelope(UserGroupDetail) } },
  update: { body: UserGroupUpdateBody, response: { 200: NullData } },
  delete: { querystring: UserGroupIdQuery, response: { 200: NullData } },
  userList: { querystring: GroupUserListQuery, response: { 200: Envelope(RelUserPage) } },
  roleList: { querystring: GroupRoleListQuery, response: { 200: Envelope(RelRolePage) } },
  linkRoles: { body: GroupRoleLinkBody, response: { 200: NullData } },
  unlinkRoles: { body: GroupRoleLinkBody, response: { 200: NullData } },
  linkUsers: { body: GroupUserLinkBody, response: { 200: NullData } },
  unlinkUsers: { body: GroupUserLinkBody, response: { 200: NullData } },
  nameList: {
    description: '带 userId 时只返回该用户尚未加入的用户组（用户“关联用户组”弹框的候选项）',
    body: UserGroupNameListBody,
    response: { 200: Envelope(Type.Array(UserGroupSimple)) },
  },
}

export const userGroupApi = bindSchemas(userGroupRoutes, userGroupSchemas)
