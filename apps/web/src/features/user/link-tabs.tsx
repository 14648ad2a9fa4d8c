import type { RoleSimple, UserGroupRow, UserGroupSimple, UserRoleRow } from '@amg/contract'
import { MSG, roleTypeLabel, routes } from '@amg/contract'
import type { TableColumnsType } from 'antd'
import { LinkPanel } from '../../components/link-panel'
import {
  groupCandidates,
  linkGroups,
  linkRoles,
  roleCandidates,
  unlinkGroup,
  unlinkRole,
  userGroups,
  userRoles,
} from './api'
import { EnabledTag, MissingUser, TabHeading, useUserIdParam } from './common'

export const CONFIRM_UNLINK_GROUP = '确定要移除该用户组关联吗？'

const roleColumns: TableColumnsType<UserRoleRow> = [
  { title: 'ID', dataIndex: 'id', width: 80 },
  { title: '角色名称', dataIndex: 'roleName' },
  { title: '角色类型', dataIndex: 'type', width: 120, render: roleTypeLabel },
  { title: '状态', dataIndex: 'status', width: 90, render: (s: number) => <EnabledTag status={s} /> },
]

const roleCandidateColumns: TableColumnsType<RoleSimple> = [
  { title: 'ID', dataIndex: 'id', width: 70 },
  { title: '角色名称', dataIndex: 'roleName' },
]

/** Role link tab (SPEC.md §2): the user's roles, searchable and paged, remove, and a popover to link more. */
export function UserRoleTab() {
  const userId = useUserIdParam()
  if (userId === null) return <MissingUser />
  return (
    <div>
      <TabHeading>关联角色</TabHeading>
      <LinkPanel<UserRoleRow, RoleSimple>
        queryKey={['user-roles', userId]}
        columns={roleColumns}
        searchPlaceholder="请输入角色名称"
        fetchLinked={({ pageNum, pageSize, keyword }) =>
          userRoles(userId, { pageNum, pageSize, roleName: keyword })
        }
        unlink={(row) => unlinkRole(userId, row.id)}
        unlinkConfirm={MSG.confirmUnlinkRole}
        linkButtonText="关联角色"
        candidateColumns={roleCandidateColumns}
        candidatePlaceholder="按角色名称搜索"
        fetchCandidates={async (keyword) => {
          const list = await roleCandidates(userId, keyword)
          return { list, total: list.length }
        }}
        link={(ids, expiresAt) => linkRoles(userId, ids, undefined, expiresAt)}
        expiry
        calls={{ link: [routes.role.nameList, routes.user.linkRoles], unlink: [routes.user.unlinkRole] }}
      />
    </div>
  )
}

const groupColumns: TableColumnsType<UserGroupRow> = [
  { title: 'ID', dataIndex: 'id', width: 80 },
  { title: '用户组名称', dataIndex: 'groupName' },
  { title: '描述', dataIndex: 'description', ellipsis: true },
  { title: '状态', dataIndex: 'status', width: 90, render: (s: number) => <EnabledTag status={s} /> },
]

const groupCandidateColumns: TableColumnsType<UserGroupSimple> = [
  { title: 'ID', dataIndex: 'id', width: 70 },
  { title: '用户组名称', dataIndex: 'groupName' },
]

/** Group link tab: the same pattern for the user's groups. */
export function UserGroupTab() {
  const userId = useUserIdParam()
  if (userId === null) return <MissingUser />
  return (
    <div>
      <TabHeading>关联用户组</TabHeading>
      <LinkPanel<UserGroupRow, UserGroupSimple>
        queryKey={['user-groups', userId]}
        columns={groupColumns}
        searchPlaceholder="请输入用户组名称"
        fetchLinked={({ pageNum, pageSize, keyword }) =>
          userGroups(userId, { pageNum, pageSize, groupName: keyword })
        }
        unlink={(row) => unlinkGroup(userId, row.id)}
        unlinkConfirm={CONFIRM_UNLINK_GROUP}
        linkButtonText="关联用户组"
        candidateColumns={groupCandidateColumns}
        candidatePlaceholder="按用户组名称搜索"
        fetchCandidates={async (keyword) => {
          const list = await groupCandidates(userId, keyword)
          return { list, total: list.length }
        }}
        link={(ids, expiresAt) => linkGroups(userId, ids, expiresAt)}
        expiry
        calls={{
          link: [routes.userGroup.nameList, routes.user.linkGroups],
          unlink: [routes.user.unlinkGroup],
        }}
      />
    </div>
  )
}
