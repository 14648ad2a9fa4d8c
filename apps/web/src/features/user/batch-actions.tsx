import { MSG, routes, type RoleSimple, type UserListRow } from '@amg/contract'
import { useQuery } from '@tanstack/react-query'
import { Button, Modal, Select, Space, Table, Tag, Typography } from 'antd'
import { useState } from 'react'
import { useCanCall } from '../../lib/can-call'
import { denyReasonOf } from '../../lib/grantable'
import { BATCH_CONCURRENCY, runBatch, type BatchResult } from './batch-runner'
import { assignableRoles, deleteUser, linkRoles, setUserStatus } from './api'

type BatchKind = 'freeze' | 'enable' | 'delete' | 'roles'

const BATCH_TITLE: Record<BatchKind, string> = {
  freeze: '批量冻结',
  enable: '批量启用',
  delete: '批量删除',
  roles: '批量分配角色',
}

interface BatchButton {
  kind: BatchKind
  text: string
  /** the signed-in user may take the action */
  allowed: boolean
  onClick: () => void
  danger?: boolean
}

/** At most this many names in a confirmation; the rest are counted. */
const NAMES_SHOWN = 10

/** '张三、李四、王五', or the first ten and '等 N 个'. */
export function nameList(users: readonly { nickName: string }[]): string {
  const names = users.slice(0, NAMES_SHOWN).map((u) => u.nickName)
  return users.length > NAMES_SHOWN ? `${names.join('、')} 等 ${users.length} 个` : names.join('、')
}

export const confirmBatchText = (verb: '删除' | '冻结', users: readonly { nickName: string }[]) =>
  `确定要${verb}选中的 ${users.length} 个用户吗？（${nameList(users)}）`

/**
 * The selection bar of the user list: 冻结, 启用, 删除 and 分配角色 for the selected rows. Each row gets
 * the single call of its own action (decisions.md "Batch actions on users"); a dialog then lists each
 * row's result. The signed-in user is never sent for deletion.
 */
export function BatchActions({
  selected,
  meId,
  onClear,
  onDone,
}: {
  selected: UserListRow[]
  meId: number | undefined
  onClear: () => void
  /** after a batch ran: the list is fetched again */
  onDone: () => Promise<unknown>
}) {
  const [modal, modalHolder] = Modal.useModal()
  const [running, setRunning] = useState<BatchKind | null>(null)
  const [results, setResults] = useState<{ kind: BatchKind; rows: BatchResult<UserListRow>[] } | null>(null)
  const [pickingRoles, setPickingRoles] = useState(false)
  const may = useBatchPermissions()

  const run = async (
    kind: BatchKind,
    action: (user: UserListRow) => Promise<unknown>,
    skip?: (user: UserListRow) => string | null,
  ) => {
    setRunning(kind)
    try {
      const rows = await runBatch(selected, action, { concurrency: BATCH_CONCURRENCY, skip })
      setResults({ kind, rows })
      await onDone()
    } finally {
      setRunning(null)
    }
  }
  const silent = { silent: true }

  const freeze = () =>
    modal.confirm({
      title: confirmBatchText('冻结', selected),
      content: '冻结后这些用户将无法登录，已登录的会话随即结束。',
      okText: '确定',
      cancelText: '取消',
      onOk: () => void run('freeze', (u) => setUserStatus(u.id, 2, silent)),
    })
  const enable = () => void run('enable', (u) => setUserStatus(u.id, 1, silent))
  const remove = () =>
    modal.confirm({
      title: confirmBatchText('删除', selected),
      content: selected.some((u) => u.id === meId) ? '当前登录的用户不会被删除。' : undefined,
      okText: '确定',
      okButtonProps: { danger: true },
      cancelText: '取消',
      onOk: () =>
        void run(
          'delete',
          (u) => deleteUser(u.id, silent),
          (u) => (u.id === meId ? `已跳过：${MSG.deleteSelf}` : null),
        ),
    })

  /** the bar's buttons, each shown to a user who may take its action */
  const actions: BatchButton[] = [
    { kind: 'freeze', text: '冻结', allowed: may.edit, onClick: freeze },
    { kind: 'enable', text: '启用', allowed: may.edit, onClick: enable },
    { kind: 'delete', text: '删除', allowed: may.delete, onClick: remove, danger: true },
    { kind: 'roles', text: '分配角色', allowed: may.assignRoles, onClick: () => setPickingRoles(true) },
  ]
  const busy = running !== null
  return (
    <>
      {modalHolder}
      <Space wrap data-testid="user-batch-bar" style={{ marginBottom: 12 }}>
        <Typography.Text>已选择 {selected.length} 个用户</Typography.Text>
        {actions
          .filter((action) => action.allowed)
          .map((action) => (
            <Button
              key={action.kind}
              size="small"
              danger={action.danger}
              loading={running === action.kind}
              disabled={busy}
              onClick={action.onClick}
            >
              {action.text}
            </Button>
          ))}
        <Button size="small" type="link" disabled={busy} onClick={onClear}>
          取消选择
        </Button>
      </Space>
      <RolePicker
        open={pickingRoles}
        count={selected.length}
        onCancel={() => setPickingRoles(false)}
        onPick={(roleIds) => {
          setPickingRoles(false)
          void run('roles', (u) => linkRoles(u.id, roleIds, silent))
        }}
      />
      <BatchResultDialog
        title={results ? `${BATCH_TITLE[results.kind]}结果` : ''}
        rows={results?.rows ?? null}
        onClose={() => {
          setResults(null)
          onClear()
        }}
      />
    </>
  )
}

/** Which batch actions the signed-in user may take: each the single call it repeats. */
export function useBatchPermissions() {
  const edit = useCanCall(routes.user.detail, routes.user.update)
  const remove = useCanCall(routes.user.delete)
  const assignRoles = useCanCall(routes.role.nameList, routes.user.linkRoles)
  return { edit, delete: remove, assignRoles, any: edit || remove || assignRoles }
}

/** The roles to add to every selected user; what the caller may not grant is shown disabled, with why. */
function RolePicker({
  open,
  count,
  onCancel,
  onPick,
}: {
  open: boolean
  count: number
  onCancel: () => void
  onPick: (roleIds: number[]) => void
}) {
  const [roleIds, setRoleIds] = useState<number[]>([])
  const roles = useQuery({ queryKey: ['user-batch-roles'], queryFn: assignableRoles, enabled: open })
  const option = (role: RoleSimple) => {
    const reason = denyReasonOf(role)
    return { value: role.id, label: role.roleName, disabled: reason !== null, title: reason ?? role.roleName }
  }
  return (
    <Modal
      title="分配角色"
      open={open}
      okText="确定"
      cancelText="取消"
      okButtonProps={{ disabled: roleIds.length === 0 }}
      onOk={() => {
        onPick(roleIds)
        setRoleIds([])
      }}
      onCancel={onCancel}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">
        为选中的 {count} 个用户关联以下角色（已有的角色保留不变）。
      </Typography.Paragraph>
      <Select
        mode="multiple"
        aria-label="要分配的角色"
        placeholder="请选择角色"
        style={{ width: '100%' }}
        loading={roles.isFetching}
        options={(roles.data ?? []).map(option)}
        optionFilterProp="label"
        value={roleIds}
        onChange={setRoleIds}
      />
    </Modal>
  )
}

/** Row by row what a batch did: 成功, or the server's message. */
export function BatchResultDialog({
  title,
  rows,
  onClose,
}: {
  title: string
  rows: BatchResult<UserListRow>[] | null
  onClose: () => void
}) {
  const failed = rows?.filter((r) => !r.ok).length ?? 0
  return (
    <Modal
      title={title}
      open={rows !== null}
      onCancel={onClose}
      footer={
        <Button type="primary" onClick={onClose}>
          知道了
        </Button>
      }
      width={560}
    >
      <Typography.Paragraph data-testid="batch-summary">
        成功 {(rows?.length ?? 0) - failed} 个，失败 {failed} 个
      </Typography.Paragraph>
      <Table<BatchResult<UserListRow>>
        data-testid="batch-results"
        rowKey={(r) => r.item.id}
        size="small"
        pagination={false}
        scroll={{ y: 320 }}
        dataSource={rows ?? []}
        columns={[
          { title: '用户昵称', key: 'nickName', render: (_: unknown, r) => r.item.nickName },
          {
            title: '结果',
            key: 'result',
            render: (_: unknown, r) =>
              r.ok ? (
                <Tag color="success">{r.message}</Tag>
              ) : (
                <Typography.Text type="danger">{r.message}</Typography.Text>
              ),
          },
        ]}
      />
    </Modal>
  )
}
