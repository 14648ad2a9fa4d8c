import { useQuery, useQueryClient } from '@tanstack/react-query'
import { Alert, Button, Card, Space, Table, Tag, type TableColumnsType, type TableProps } from 'antd'
import type { ReactNode } from 'react'
import { useSearchParams } from 'react-router'
import type { AccessRequestRow, EligibilityRow, MyRole, RequestableRole } from '@amg/contract'
import { Screen } from '../../lib/ui/screen'
import { formatTime } from '../../components/list-columns'
import { ConfirmLink } from '../../components/confirm-link'
import { toastSuccess } from '../../lib/feedback'
import { useDialogFor } from '../../lib/dialog-for'
import { ACCESS_KEY, cancelRequest, listRequests, myEligibilities, myRoles, requestableRoles } from './api'
import { ActivateDialog, AskDialog } from './ask-dialogs'
import { lengthText, RequestStatus, Until } from './status'

const VIA: Record<string, string> = { direct: '直接授予', group: '用户组', position: '岗位' }

/**
 * 我的权限 (DESIGN.md §20), every signed-in user's own: the roles held and until when, the roles
 * one may activate (激活), the roles one may ask for (申请; from the 403 page, only those that open
 * the refused page) and one's requests with their state (撤回 while pending).
 */
export function MyAccessPage() {
  const client = useQueryClient()
  const [params] = useSearchParams()
  const path = params.get('path') ?? undefined
  const roles = useQuery({ queryKey: [...ACCESS_KEY, 'roles'], queryFn: myRoles })
  const eligible = useQuery({ queryKey: [...ACCESS_KEY, 'eligible'], queryFn: myEligibilities })
  const askable = useQuery({
    queryKey: [...ACCESS_KEY, 'requestable', path],
    queryFn: () => requestableRoles(path),
  })
  const mine = useQuery({
    queryKey: [...ACCESS_KEY, 'mine'],
    queryFn: () => listRequests({ box: 'mine', pageNum: 1, pageSize: 50 }),
  })
  const refresh = () => client.invalidateQueries({ queryKey: ACCESS_KEY })
  const activating = useDialogFor<EligibilityRow>(refresh)
  const asking = useDialogFor<RequestableRole>(refresh)

  const roleColumns: TableColumnsType<MyRole> = [
    { title: '角色', dataIndex: 'roleName', width: 200 },
    {
      title: '来源',
      key: 'via',
      width: 200,
      render: (_, r) => (r.viaName ? `${VIA[r.via] ?? r.via}：${r.viaName}` : (VIA[r.via] ?? r.via)),
    },
    { title: '到期时间', dataIndex: 'expiresAt', width: 200, render: (at) => <Until at={at} /> },
  ]
  const eligibleColumns: TableColumnsType<EligibilityRow> = [
    { title: '角色', dataIndex: 'roleName', width: 200 },
    { title: '最长时长', dataIndex: 'maxMinutes', width: 120, render: (m: number) => `${m} 分钟` },
    {
      title: '条件',
      key: 'rules',
      width: 260,
      render: (_, e) => (
        <Space size={4} wrap>
          {e.requireReason ? <Tag>需填理由</Tag> : null}
          {e.requireMfa ? <Tag>需两步验证</Tag> : null}
          {e.approvals ? <Tag color="blue">{e.approvals} 人审批</Tag> : <Tag color="green">无需审批</Tag>}
        </Space>
      ),
    },
    {
      title: '操作',
      key: 'actions',
      width: 100,
      render: (_, e) => (
        <Button type="link" onClick={() => activating.open(e)}>
          激活
        </Button>
      ),
    },
  ]
  const askColumns: TableColumnsType<RequestableRole> = [
    { title: '角色', dataIndex: 'roleName', width: 200 },
    { title: '说明', dataIndex: 'description', width: 260 },
    { title: '审批人数', dataIndex: 'requestApprovals', width: 100 },
    {
      title: '操作',
      key: 'actions',
      width: 120,
      render: (_, r) =>
        r.held ? (
          <Tag color="green">已拥有</Tag>
        ) : r.pending ? (
          <Tag color="processing">审批中</Tag>
        ) : (
          <Button type="link" onClick={() => asking.open(r)}>
            申请
          </Button>
        ),
    },
  ]
  const requestColumns: TableColumnsType<AccessRequestRow> = [
    { title: '角色', dataIndex: 'roleName', width: 160 },
    { title: '时长', dataIndex: 'minutes', width: 100, render: lengthText },
    { title: '理由', dataIndex: 'reason', width: 200 },
    { title: '状态', dataIndex: 'status', width: 100, render: (s: string) => <RequestStatus status={s} /> },
    {
      title: '审批',
      key: 'approvals',
      width: 200,
      render: (_, r) =>
        [
          `${r.approvals.length}/${r.approvalsNeeded}`,
          ...r.approvals.map((a) => a.approverName ?? ''),
          r.decisionComment ? `意见：${r.decisionComment}` : '',
        ]
          .filter(Boolean)
          .join(' · '),
    },
    { title: '申请时间', dataIndex: 'createTime', width: 180, render: formatTime },
    {
      title: '操作',
      key: 'actions',
      width: 100,
      render: (_, r) =>
        r.status === 'pending' ? (
          <ConfirmLink
            title={`撤回对角色“${r.roleName}”的申请？`}
            onConfirm={async () => {
              await cancelRequest(r.id)
              toastSuccess('已撤回')
              await refresh()
            }}
          >
            撤回
          </ConfirmLink>
        ) : null,
    },
  ]

  return (
    <Screen title="我的权限">
      <Space direction="vertical" size="middle" style={{ width: '100%' }}>
        <SectionTable<MyRole>
          title="我的角色"
          testId="my-roles"
          rowKey={(r) => `${r.roleId}-${r.via}-${r.viaName ?? ''}`}
          columns={roleColumns}
          rows={roles.data}
          loading={roles.isLoading}
          scrollX={600}
        />
        {eligible.data?.length ? (
          <SectionTable<EligibilityRow>
            title="可激活的角色"
            testId="my-eligible"
            columns={eligibleColumns}
            rows={eligible.data}
            scrollX={680}
          />
        ) : null}
        <SectionTable<RequestableRole>
          title={path ? `可打开 ${path} 的可申请角色` : '可申请的角色'}
          testId="requestable-roles"
          columns={askColumns}
          rows={askable.data}
          loading={askable.isLoading}
          scrollX={680}
          instead={
            path && askable.data && askable.data.length === 0 ? (
              <Alert type="info" showIcon message="没有可申请的角色能打开该页面，请联系管理员授权。" />
            ) : undefined
          }
        />
        <SectionTable<AccessRequestRow>
          title="我的申请"
          testId="my-requests"
          columns={requestColumns}
          rows={mine.data?.list}
          loading={mine.isLoading}
          scrollX={1040}
        />
      </Space>
      <ActivateDialog
        eligibility={activating.target}
        onClose={activating.onClose}
        onDone={activating.onDone}
      />
      <AskDialog role={asking.target} onClose={asking.onClose} onDone={asking.onDone} />
    </Screen>
  )
}

/** One section of the page: a card with every row of its table (no pager), or `instead` a notice. */
function SectionTable<T extends object>({
  title,
  testId,
  rowKey = 'id',
  columns,
  rows,
  loading,
  scrollX,
  instead,
}: {
  title: string
  testId: string
  rowKey?: TableProps<T>['rowKey']
  columns: TableColumnsType<T>
  rows: readonly T[] | undefined
  loading?: boolean
  scrollX: number
  instead?: ReactNode
}) {
  return (
    <Card title={title} size="small">
      {instead ?? (
        <Table<T>
          rowKey={rowKey}
          columns={columns}
          dataSource={rows ?? []}
          loading={loading}
          pagination={false}
          scroll={{ x: scrollX }}
          data-testid={testId}
        />
      )}
    </Card>
  )
}
