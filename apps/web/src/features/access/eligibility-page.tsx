import { useQuery, useQueryClient } from '@tanstack/react-query'
import { Button, Table, type TableColumnsType } from 'antd'
import { useDialogFor } from '../../lib/dialog-for'
import { MSG, routes, type EligibilityRow } from '@amg/contract'
import { Screen } from '../../lib/ui/screen'
import { formatTime } from '../../components/list-columns'
import { DeleteLink } from '../../components/list-screen'
import { useCanCall } from '../../lib/can-call'
import { toastSuccess } from '../../lib/feedback'
import { ACCESS_KEY, deleteEligibility, listEligibilities } from './api'
import { EligibilityFormDialog } from './eligibility-form'
import { lengthText } from './status'

const yesNo = (v: boolean) => (v ? '是' : '否')

/**
 * 临时授权管理 (DESIGN.md §20): who may activate which role for a while, on what terms. The list holds
 * the users in the caller's reach; 新建 and 删除 show only with their permissions, and the server
 * checks each against the caller's own power over the role.
 */
export function EligibilityManagePage() {
  const client = useQueryClient()
  const canAdd = useCanCall(routes.eligibility.insert)
  const list = useQuery({ queryKey: [...ACCESS_KEY, 'eligibility', 'all'], queryFn: listEligibilities })
  const refresh = () => void client.invalidateQueries({ queryKey: ACCESS_KEY })
  const adding = useDialogFor(refresh)

  const columns: TableColumnsType<EligibilityRow> = [
    { title: '用户', dataIndex: 'nickName', width: 140 },
    { title: '角色', dataIndex: 'roleName', width: 160 },
    { title: '最长时长', dataIndex: 'maxMinutes', width: 110, render: lengthText },
    { title: '须填理由', dataIndex: 'requireReason', width: 90, render: yesNo },
    { title: '须两步验证', dataIndex: 'requireMfa', width: 100, render: yesNo },
    {
      title: '审批人数',
      dataIndex: 'approvals',
      width: 100,
      render: (n: number) => (n === 0 ? '无需审批' : `${n} 人`),
    },
    { title: '授予人', dataIndex: 'grantedByName', width: 120, render: (v: string | null) => v ?? '—' },
    { title: '创建时间', dataIndex: 'createTime', width: 180, render: formatTime },
    {
      title: '操作',
      key: 'actions',
      width: 90,
      render: (_, r) => (
        <DeleteLink
          title={`确定要删除 ${r.nickName} 对角色“${r.roleName}”的临时授权吗？`}
          call={routes.eligibility.delete}
          onConfirm={async () => {
            await deleteEligibility(r.id)
            toastSuccess(MSG.deleted)
            refresh()
          }}
        />
      ),
    },
  ]

  return (
    <Screen title="临时授权管理">
      {canAdd && (
        <Button type="primary" onClick={() => adding.open(true)} style={{ marginBottom: 12 }}>
          新建
        </Button>
      )}
      <Table<EligibilityRow>
        rowKey="id"
        columns={columns}
        dataSource={list.data ?? []}
        loading={list.isLoading}
        pagination={{ pageSize: 10, hideOnSinglePage: true }}
        scroll={{ x: 1090 }}
        data-testid="eligibility-table"
      />
      <EligibilityFormDialog open={adding.isOpen} onClose={adding.onClose} onDone={adding.onDone} />
    </Screen>
  )
}
