import { Tag, type TableColumnsType } from 'antd'
import { USER_STATUS, USER_STATUS_LABEL, roleTypeLabel } from '@amg/contract'
import { OwnerLinkPanel } from '../../components/owner-link-panel'
import type { OwnerLinks } from '../../lib/owner-links'
import { positionRoleLinks, positionUserLinks } from './api'
import { MissingPosition, statusTag, usePositionId } from './common'

/** A user's status as a tag: 正常 green, 冻结 plain; an unknown value shows as it is. */
const userStatusTag = (status: number) => {
  if (status === USER_STATUS.active) return <Tag color="green">{USER_STATUS_LABEL[status]}</Tag>
  if (status === USER_STATUS.frozen) return <Tag>{USER_STATUS_LABEL[status]}</Tag>
  return status
}

type Row = { id: number }

/** A candidate shows its id and its name. */
const candidateColumns = (nameTitle: string, nameField: string): TableColumnsType<Row> => [
  { title: 'ID', dataIndex: 'id', key: 'id', width: 70 },
  { title: nameTitle, dataIndex: nameField, key: nameField },
]

/** A link tab of the position: what it links, its columns and its candidates', its search placeholder. */
interface PositionLinkTab {
  links: OwnerLinks<Row, Row>
  columns: TableColumnsType<Row>
  candidateColumns: TableColumnsType<Row>
  placeholder: string
}

const LINK_TABS: Record<'roles' | 'users', PositionLinkTab> = {
  roles: {
    links: positionRoleLinks,
    columns: [
      { title: 'ID', dataIndex: 'id', key: 'id', width: 80 },
      { title: '角色名称', dataIndex: 'roleName', key: 'roleName' },
      { title: '类型', dataIndex: 'type', key: 'type', render: roleTypeLabel },
      { title: '状态', dataIndex: 'status', key: 'status', render: statusTag },
    ],
    candidateColumns: candidateColumns('角色名称', 'roleName'),
    placeholder: '请输入角色名称',
  },
  users: {
    links: positionUserLinks,
    columns: [
      { title: 'ID', dataIndex: 'id', key: 'id', width: 80 },
      { title: '用户昵称', dataIndex: 'nickName', key: 'nickName' },
      { title: '真实姓名', dataIndex: 'realName', key: 'realName', render: (v: string | null) => v ?? '' },
      { title: '状态', dataIndex: 'status', key: 'status', render: userStatusTag },
    ],
    candidateColumns: candidateColumns('用户昵称', 'nickName'),
    placeholder: '请输入用户昵称',
  },
}

/** One link tab of the position named by the query: the shared link panel (SPEC.md §2: as for groups). */
function PositionLinks({ what }: { what: keyof typeof LINK_TABS }) {
  const positionId = usePositionId()
  if (!positionId) return <MissingPosition />
  return (
    <OwnerLinkPanel owner={positionId} queryKey={[`position-${what}`, positionId]} {...LINK_TABS[what]} />
  )
}

/** Role links of a position. */
export const PositionRoleTab = () => <PositionLinks what="roles" />

/** User links of a position: candidates paged with load-more. */
export const PositionUserTab = () => <PositionLinks what="users" />
