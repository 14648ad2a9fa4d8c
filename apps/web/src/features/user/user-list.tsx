import { PlusOutlined } from '@ant-design/icons'
import { MSG, isBlank, routes, type UserRow } from '@amg/contract'
import { Button, Form, Input, Modal, Space, Typography, type TableColumnsType } from 'antd'
import { useState } from 'react'
import { useNavigate } from 'react-router'
import { DeleteLink, ListQueryBar, ListTable, useListScreen } from '../../components/list-screen'
import { authzAnalysisUrl, useCanOpenAuthzAnalysis } from '../../lib/authz-analysis-link'
import { toastError, toastSuccess } from '../../lib/feedback'
import { useDraft } from '../../lib/list-state'
import { useSession } from '../../lib/session-store'
import { Screen } from '../../lib/ui/screen'
import { deleteUser, insertUser, listUsers } from './api'
import { UserStatusTag, formatDateTime } from './common'

export const CONFIRM_DELETE_USER = '确定要删除该用户吗？'
export const USER_LIST_PATH = '/usermanage'

/** The user list's search in the URL query (lib/list-state.ts). */
const USER_LIST_FILTERS = { nickName: 'text' } as const

/** Where the list's edit action leads: the base info tab, with mobile and realName shown (isShow). */
export const userInfoUrl = (user: { id: number; nickName: string }) =>
  `/usermanage/userinfo/userbaseinfo?${new URLSearchParams({
    id: String(user.id),
    title: user.nickName,
    isShow: '1',
  }).toString()}`

/**
 * User list (SPEC.md §2): search by nickName, create (a prompt for the nickName), a table of
 * createTime, updateTime, nickName and status, edit and delete, 10 per page.
 */
export function UserListPage() {
  const navigate = useNavigate()
  const me = useSession((s) => s.user)
  const canAnalyse = useCanOpenAuthzAnalysis()
  const screen = useListScreen({
    filters: USER_LIST_FILTERS,
    queryKey: ['users'],
    fetch: ({ filters, pageNum, pageSize }) => listUsers({ nickName: filters.nickName, pageNum, pageSize }),
  })
  const { list, refresh } = screen
  const [keyword, setKeyword] = useDraft(list.filters.nickName)
  const [creating, setCreating] = useState(false)

  const columns: TableColumnsType<UserRow> = [
    { title: '创建时间', dataIndex: 'createTime', width: 190, render: formatDateTime },
    { title: '更新时间', dataIndex: 'updateTime', width: 190, render: formatDateTime },
    { title: '用户昵称', dataIndex: 'nickName' },
    {
      title: '状态',
      dataIndex: 'status',
      width: 100,
      render: (status: number) => <UserStatusTag status={status} />,
    },
    {
      title: '操作',
      key: 'actions',
      width: canAnalyse ? 230 : 160,
      render: (_: unknown, row) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => navigate(userInfoUrl(row))}>
            修改
          </Button>
          {canAnalyse ? (
            <Button type="link" size="small" onClick={() => navigate(authzAnalysisUrl(row.id))}>
              权限分析
            </Button>
          ) : null}
          {row.id === me?.id ? (
            // SPEC.md §8: a user cannot delete themselves (the server refuses too).
            <Button type="link" size="small" danger onClick={() => toastError(MSG.deleteSelf)}>
              删除
            </Button>
          ) : (
            // a failure (e.g. '不能删除自己！') has been shown by the HTTP layer
            <DeleteLink
              title={CONFIRM_DELETE_USER}
              onConfirm={() => screen.removeRow(() => deleteUser(row.id))}
              call={routes.user.delete}
            />
          )}
        </Space>
      ),
    },
  ]

  return (
    <Screen title="用户管理">
      <ListQueryBar
        placeholder="请输入用户昵称"
        label="用户昵称"
        value={keyword}
        onChange={setKeyword}
        onSearch={(nickName) => list.setFilters({ nickName })}
      >
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
          新建
        </Button>
        <Button onClick={() => navigate('/usermanage/adduser')}>新建（填写详细信息）</Button>
      </ListQueryBar>
      <ListTable<UserRow>
        screen={screen}
        columns={columns}
        data-testid="user-table"
        scrollX={canAnalyse ? 830 : 760}
      />
      <CreateUserPrompt
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={async () => {
          setCreating(false)
          list.setPage(1)
          await refresh()
        }}
      />
    </Screen>
  )
}

/**
 * The create prompt (SPEC.md §2): a nickName, which must not be blank ('用户昵称为空！'). The new user
 * gets status 1 and the server's preset initial password, whose value is not shown.
 */
function CreateUserPrompt({
  open,
  onClose,
  onCreated,
}: {
  open: boolean
  onClose: () => void
  onCreated: () => Promise<unknown>
}) {
  const [form] = Form.useForm<{ nickName: string }>()
  const [saving, setSaving] = useState(false)

  const submit = async () => {
    let values: { nickName: string }
    try {
      values = await form.validateFields()
    } catch (invalid) {
      console.info('新建用户：表单未通过校验', invalid)
      return
    }
    setSaving(true)
    try {
      await insertUser({ nickName: values.nickName.trim(), status: 1 })
      toastSuccess(MSG.created)
      form.resetFields()
      await onCreated()
    } catch {
      // the error toast is already shown
    } finally {
      setSaving(false)
    }
  }

  return (
    <Modal
      title="新建用户"
      open={open}
      okText="确定"
      cancelText="取消"
      confirmLoading={saving}
      onOk={() => void submit()}
      onCancel={onClose}
      destroyOnHidden
      mask={{ closable: false }}
    >
      <Typography.Paragraph type="secondary">
        请输入用户昵称，新用户状态为正常，并使用预设的初始密码。
      </Typography.Paragraph>
      <Form form={form} preserve={false} onFinish={() => void submit()}>
        <Form.Item
          name="nickName"
          rules={[
            {
              validator: async (_rule, value) => {
                if (isBlank(value)) throw new Error(MSG.nickNameBlank)
              },
            },
          ]}
        >
          <Input autoFocus placeholder="用户昵称" aria-label="新用户昵称" maxLength={64} />
        </Form.Item>
      </Form>
    </Modal>
  )
}
