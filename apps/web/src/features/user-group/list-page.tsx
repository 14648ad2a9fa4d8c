import { useNavigate } from 'react-router'
import { Button, Tag, type TableColumnsType } from 'antd'
import { routes, type UserGroupListRow } from '@amg/contract'
import {
  DeleteLink,
  ListQueryBar,
  ListTable,
  selectField,
  textField,
  useListScreen,
  useToggleRow,
} from '../../components/list-screen'
import { useCanCall } from '../../lib/can-call'
import { useDraft } from '../../lib/list-state'
import { useSession } from '../../lib/session-store'
import { Screen } from '../../lib/ui/screen'
import { deleteGroup, listGroups, toggleEnable } from './api'
import { GROUP_STATUS_OPTIONS, groupStatusText } from './group-fields'
import { ExportButton } from '../../components/export-button'
import { actionsColumn, formatTime, operatorColumns } from '../../components/list-columns'

export const GROUP_LIST_PATH = '/usergroupmanage'
export const GROUPS_KEY = ['user-groups'] as const

/** /usergroupmanage/usergroupinfo: edit (isShow) or view (isDisable) one group. */
export const groupInfoPath = (id: number, mode: 'edit' | 'view') =>
  `${GROUP_LIST_PATH}/usergroupinfo?isDisable=${mode === 'view'}&id=${id}&isShow=${mode === 'edit'}`

/** Search and status filter in the URL query (lib/list-state.ts). */
const GROUP_LIST_FILTERS = { groupName: 'text', description: 'text', status: 'id' } as const

/** The group list (SPEC.md §2): search by name and description, status filter, actions, 10 per page. */
export function GroupListScreen() {
  const navigate = useNavigate()
  const showOperatorUser = useSession((s) => s.showOperatorUser)
  const screen = useListScreen({
    filters: GROUP_LIST_FILTERS,
    queryKey: GROUPS_KEY,
    fetch: ({ filters, pageNum, pageSize }) => listGroups(filters, pageNum, pageSize),
  })
  const { list, refresh, removeRow } = screen
  const { filters } = list
  // The bar shows what the list was searched with, also after back, a reload or a shared link.
  const [draft, setDraft] = useDraft(filters)
  const toggleButton = useToggleRow(toggleEnable, refresh, routes.userGroup.enable)
  const canEdit = useCanCall(routes.userGroup.update)
  const canAdd = useCanCall(routes.userGroup.insert)

  const search = () =>
    list.setFilters({
      groupName: draft.groupName.trim(),
      description: draft.description.trim(),
      status: draft.status,
    })
  const reset = () => list.setFilters({ groupName: '', description: '', status: undefined })

  const columns: TableColumnsType<UserGroupListRow> = [
    { title: '用户组名称', dataIndex: 'groupName', key: 'groupName' },
    {
      title: '状态',
      dataIndex: 'status',
      key: 'status',
      width: 90,
      render: (status: number) => (
        <Tag color={status === 1 ? 'green' : 'default'}>{groupStatusText(status)}</Tag>
      ),
    },
    { title: '描述', dataIndex: 'description', key: 'description', ellipsis: true },
    {
      title: '创建时间',
      dataIndex: 'createTime',
      key: 'createTime',
      width: 180,
      render: formatTime,
    },
    {
      title: '更新时间',
      dataIndex: 'updateTime',
      key: 'updateTime',
      width: 180,
      render: formatTime,
    },
    ...operatorColumns<UserGroupListRow>(showOperatorUser),
    actionsColumn<UserGroupListRow>(
      240,
      (row) => (
        <>
          {canEdit && (
            <Button type="link" size="small" onClick={() => navigate(groupInfoPath(row.id, 'edit'))}>
              修改
            </Button>
          )}
          <Button type="link" size="small" onClick={() => navigate(groupInfoPath(row.id, 'view'))}>
            查看
          </Button>
          {toggleButton(row)}
          <DeleteLink
            title={`确定要删除用户组“${row.groupName}”吗？`}
            onConfirm={() => removeRow(() => deleteGroup(row.id))}
            call={routes.userGroup.delete}
          />
        </>
      ),
      true,
    ),
  ]

  return (
    <Screen
      title="用户组管理"
      description="用户组把多个用户归在一起：组内用户获得该组关联的角色。用户组停用后，组内用户不再因它获得角色。"
    >
      <ListQueryBar
        onSearch={search}
        onReset={reset}
        fields={[
          textField(
            'groupName',
            '用户组名称',
            draft.groupName,
            (v) => setDraft({ ...draft, groupName: v }),
            search,
            {
              placeholder: '按用户组名称搜索',
            },
          ),
          textField(
            'description',
            '描述',
            draft.description,
            (v) => setDraft({ ...draft, description: v }),
            search,
            {
              placeholder: '按描述搜索',
            },
          ),
          selectField(
            'status',
            '状态',
            draft.status,
            (status) => setDraft({ ...draft, status }),
            GROUP_STATUS_OPTIONS.map((o) => ({ ...o })),
            { width: 140, placeholder: '全部状态' },
          ),
        ]}
      >
        {canAdd && (
          <Button type="primary" onClick={() => navigate(`${GROUP_LIST_PATH}/addusergroup`)}>
            新建
          </Button>
        )}
        <ExportButton
          route={routes.groupExport.groupExport}
          params={{
            groupName: filters.groupName,
            description: filters.description,
            status: filters.status,
          }}
          fallbackName="用户组.xlsx"
        />
      </ListQueryBar>
      <ListTable<UserGroupListRow> screen={screen} columns={columns} scrollX={1000} />
    </Screen>
  )
}
