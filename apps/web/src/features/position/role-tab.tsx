import type { TableColumnsType } from 'antd'
import { MSG, roleTypeLabel, routes, type RoleSimple } from '@amg/contract'
import { LinkPanel } from '../../components'
import { fetchPositionRoles, fetchRoleCandidates, linkRoles, unlinkRoles, type LinkedRole } from './api'
import { MissingPosition, statusTag, usePositionId } from './common'

const roleColumns: TableColumnsType<LinkedRole> = [
  { title: 'ID', dataIndex: 'id', key: 'id', width: 80 },
  { title: '角色名称', dataIndex: 'roleName', key: 'roleName' },
  { title: '类型', dataIndex: 'type', key: 'type', render: roleTypeLabel },
  { title: '状态', dataIndex: 'status', key: 'status', render: statusTag },
]

const roleCandidateColumns: TableColumnsType<RoleSimple> = [
  { title: 'ID', dataIndex: 'id', key: 'id', width: 70 },
  { title: '角色名称', dataIndex: 'roleName', key: 'roleName' },
]

/** Role links of a position: the shared link panel (SPEC.md §2: as for groups). */
export function PositionRoleTab() {
  const positionId = usePositionId()
  if (!positionId) return <MissingPosition />
  return (
    <LinkPanel<LinkedRole, RoleSimple>
      queryKey={['position-roles', positionId]}
      columns={roleColumns}
      searchPlaceholder="请输入角色名称"
      fetchLinked={(q) => fetchPositionRoles(positionId, q)}
      unlink={(row) => unlinkRoles(positionId, [row.id])}
      unlinkConfirm={MSG.confirmUnlinkRole}
      linkButtonText="关联角色"
      candidateColumns={roleCandidateColumns}
      candidatePlaceholder="请输入角色名称"
      fetchCandidates={(keyword) => fetchRoleCandidates(positionId, keyword)}
      link={(ids) => linkRoles(positionId, ids)}
      calls={{
        link: [routes.role.nameList, routes.position.linkRoles],
        unlink: [routes.position.unlinkRoles],
      }}
    />
  )
}
