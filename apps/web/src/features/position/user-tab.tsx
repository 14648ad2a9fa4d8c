import { Tag, type TableColumnsType } from 'antd'
import { MSG, USER_STATUS, USER_STATUS_LABEL, routes } from '@amg/contract'
import { LinkPanel } from '../../components'
import {
  fetchPositionUsers,
  fetchUserCandidates,
  linkUsers,
  unlinkUsers,
  type LinkedUser,
  type UserCandidate,
} from './api'
import { MissingPosition, usePositionId } from './common'

/** A user's status as a tag: 正常 green, 冻结 plain; an unknown value shows as it is. */
const userStatusTag = (status: number) => {
  if (status === USER_STATUS.active) return <Tag color="green">{USER_STATUS_LABEL[status]}</Tag>
  if (status === USER_STATUS.frozen) return <Tag>{USER_STATUS_LABEL[status]}</Tag>
  return status
}

const userColumns: TableColumnsType<LinkedUser> = [
  { title: 'ID', dataIndex: 'id', key: 'id', width: 80 },
  { title: '用户昵称', dataIndex: 'nickName', key: 'nickName' },
  { title: '真实姓名', dataIndex: 'realName', key: 'realName', render: (v: string | null) => v ?? '' },
  { title: '状态', dataIndex: 'status', key: 'status', render: userStatusTag },
]

const userCandidateColumns: TableColumnsType<UserCandidate> = [
  { title: 'ID', dataIndex: 'id', key: 'id', width: 70 },
  { title: '用户昵称', dataIndex: 'nickName', key: 'nickName' },
]

/** User links of a position: the shared link panel, candidates paged with load-more. */
export function PositionUserTab() {
  const positionId = usePositionId()
  if (!positionId) return <MissingPosition />
  return (
    <LinkPanel<LinkedUser, UserCandidate>
      queryKey={['position-users', positionId]}
      columns={userColumns}
      searchPlaceholder="请输入用户昵称"
      fetchLinked={(q) => fetchPositionUsers(positionId, q)}
      unlink={(row) => unlinkUsers(positionId, [row.id])}
      unlinkConfirm={MSG.confirmUnlinkUser}
      linkButtonText="关联用户"
      candidateColumns={userCandidateColumns}
      candidatePlaceholder="请输入用户昵称"
      fetchCandidates={(keyword, pageNum) => fetchUserCandidates(positionId, keyword, pageNum)}
      link={(ids, expiresAt) => linkUsers(positionId, ids, expiresAt)}
      expiry
      calls={{
        link: [routes.user.nameList, routes.position.linkUsers],
        unlink: [routes.position.unlinkUsers],
      }}
    />
  )
}
