import { useQuery, useQueryClient } from '@tanstack/react-query'
import { Button, Form, Input, Segmented, Space, Table, type TableColumnsType } from 'antd'
import { useState } from 'react'
import { ACCESS_MSG, routes, type AccessRequestRow } from '@amg/contract'
import { Screen } from '../../lib/ui/screen'
import { formatTime } from '../../components/list-columns'
import { FormDialog, useFormSubmit } from '../../components/form-dialog'
import { useCanCall } from '../../lib/can-call'
import { toastSuccess } from '../../lib/feedback'
import { useDialogFor } from '../../lib/dialog-for'
import { ACCESS_KEY, approveRequest, listRequests, rejectRequest } from './api'
import { lengthText, RequestStatus } from './status'

type Decision = { row: AccessRequestRow; approve: boolean }

/** 批准 (comment optional) or 驳回 (comment required), with the request shown above. */
function DecideDialog({
  decision,
  onClose,
  onDone,
}: {
  decision: Decision | null
  onClose(): void
  onDone(): void
}) {
  const [form] = Form.useForm<{ comment?: string }>()
  const { saving, submit } = useFormSubmit(form, '审批', async ({ comment }) => {
    const { row, approve } = decision!
    if (approve) await approveRequest(row.id, comment)
    else await rejectRequest(row.id, comment ?? '')
    toastSuccess(approve ? ACCESS_MSG.approved : ACCESS_MSG.rejected)
    onDone()
  })
  if (!decision) return null
  const { row, approve } = decision
  return (
    <FormDialog
      open
      title={`${approve ? '批准' : '驳回'} ${row.requesterName} 对角色“${row.roleName}”的申请`}
      saving={saving}
      onOk={submit}
      onClose={onClose}
    >
      <p>
        时长：{lengthText(row.minutes)}；理由：{row.reason}
      </p>
      <Form form={form} layout="vertical">
        <Form.Item
          label={approve ? '意见（可选）' : '驳回意见'}
          name="comment"
          rules={approve ? [] : [{ required: true, whitespace: true, message: ACCESS_MSG.commentRequired }]}
        >
          <Input.TextArea
            maxLength={500}
            autoSize={{ minRows: 2, maxRows: 4 }}
            data-testid="decide-comment"
          />
        </Form.Item>
      </Form>
    </FormDialog>
  )
}

/**
 * 审批中心 (DESIGN.md §20): the requests the user may decide (others', within reach, of roles whose
 * approver roles they hold), pending first; 批准 and 驳回 only with the approve permission. The server
 * decides again on each: the approver must be able to make the link themselves.
 */
export function ApprovalCenterPage() {
  const client = useQueryClient()
  const [status, setStatus] = useState<'pending' | 'all'>('pending')
  const [pageNum, setPageNum] = useState(1)
  const canDecide = useCanCall(routes.accessRequest.approve)
  const page = useQuery({
    queryKey: [...ACCESS_KEY, 'approve', status, pageNum],
    queryFn: () =>
      listRequests({
        box: 'approve',
        status: status === 'pending' ? 'pending' : null,
        pageNum,
        pageSize: 10,
      }),
  })
  const deciding = useDialogFor<Decision>(() => client.invalidateQueries({ queryKey: ACCESS_KEY }))

  const columns: TableColumnsType<AccessRequestRow> = [
    { title: '申请人', dataIndex: 'requesterName', width: 120 },
    { title: '角色', dataIndex: 'roleName', width: 160 },
    { title: '时长', dataIndex: 'minutes', width: 100, render: lengthText },
    { title: '理由', dataIndex: 'reason', width: 220 },
    {
      title: '审批进度',
      key: 'progress',
      width: 160,
      render: (_, r) =>
        `${r.approvals.length}/${r.approvalsNeeded}${r.approvals.length ? ` · ${r.approvals.map((a) => a.approverName).join('、')}` : ''}`,
    },
    { title: '状态', dataIndex: 'status', width: 100, render: (s: string) => <RequestStatus status={s} /> },
    { title: '申请时间', dataIndex: 'createTime', width: 180, render: formatTime },
    {
      title: '操作',
      key: 'actions',
      width: 140,
      render: (_, r) =>
        canDecide && r.status === 'pending' ? (
          <Space size={0}>
            <Button type="link" onClick={() => deciding.open({ row: r, approve: true })}>
              批准
            </Button>
            <Button type="link" danger onClick={() => deciding.open({ row: r, approve: false })}>
              驳回
            </Button>
          </Space>
        ) : null,
    },
  ]

  return (
    <Screen title="审批中心">
      <Segmented
        value={status}
        onChange={(v) => {
          setStatus(v as 'pending' | 'all')
          setPageNum(1)
        }}
        options={[
          { label: '待审批', value: 'pending' },
          { label: '全部', value: 'all' },
        ]}
        style={{ marginBottom: 12 }}
      />
      <Table<AccessRequestRow>
        rowKey="id"
        columns={columns}
        dataSource={page.data?.list ?? []}
        loading={page.isLoading}
        pagination={{ current: pageNum, pageSize: 10, total: page.data?.total ?? 0, onChange: setPageNum }}
        scroll={{ x: 1180 }}
        data-testid="approval-table"
      />
      <DecideDialog decision={deciding.target} onClose={deciding.onClose} onDone={deciding.onDone} />
    </Screen>
  )
}
