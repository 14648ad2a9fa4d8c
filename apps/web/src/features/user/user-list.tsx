import { PlusOutlined, UploadOutlined } from '@ant-design/icons'
import { MSG, isBlank, routes, type UserListRow } from '@amg/contract'
import { Button, Form, Grid, Input, Modal, Space, Table, Typography, type TableColumnsType } from 'antd'
import { useCallback, useState } from 'react'
import { useNavigate } from 'react-router'
import { Pagination } from '../../components'
import { ExportButton } from '../../components/export-button'
import { ImportDialog } from '../../components/import-dialog'
import { DeleteLink, ListQueryBar, useListScreen } from '../../components/list-screen'
import { useCanCall } from '../../lib/can-call'
import { authzAnalysisUrl, useCanOpenAuthzAnalysis } from '../../lib/authz-analysis-link'
import { toastSuccess } from '../../lib/feedback'
import { useDraft } from '../../lib/list-state'
import { useSession } from '../../lib/session-store'
import { Screen } from '../../lib/ui/screen'
import { insertUser, deleteUser, listUsers } from './api'
import { BatchActions, useBatchPermissions } from './batch-actions'
import { useUserColumns } from './column-settings'
import { formatDateTime } from './common'
import { OrgFilter } from './org-filter'
import { useResetPassword } from './reset-password'
import { MfaCell, useResetMfa } from './reset-mfa'
import { useStatusSwitch } from './status-switch'
import { ColumnSettings, OPTIONAL_COLUMN_DEFS } from './user-list-columns'

/** The row's delete confirmation names the user (SPEC.md fixes no text for it). */
export const confirmDeleteUser = (nickName: string) => `确定要删除用户 ${nickName} 吗？`
export const USER_LIST_PATH = '/usermanage'

/**
 * The user list's search in the URL query (lib/list-state.ts): `keyword` (nickName, realName or
 * mobile), the department, and `nickName`, which links made before the keyword still carry.
 */
const USER_LIST_FILTERS = { keyword: 'text', nickName: 'text', orgId: 'id' } as const

/** Where the list's edit action leads: the base info tab, with mobile and realName shown (isShow). */
export const userInfoUrl = (user: { id: number; nickName: string }) =>
  `/usermanage/userinfo/userbaseinfo?${new URLSearchParams({
    id: String(user.id),
    title: user.nickName,
    isShow: '1',
  }).toString()}`

/**
 * User list (SPEC.md §2 and the additions of decisions.md "The user list"): a keyword search, a
 * department tree, create, a table of createTime, updateTime, nickName, the optional 姓名, 手机号,
 * 部门/岗位 and 角色, a status switch, edit, delete and 重置密码, batch actions on selected rows.
 */
export function UserListPage() {
  const navigate = useNavigate()
  const me = useSession((s) => s.user)
  const canAnalyse = useCanOpenAuthzAnalysis()
  const narrow = Grid.useBreakpoint().md === false
  const screen = useListScreen({
    filters: USER_LIST_FILTERS,
    queryKey: ['users'],
    fetch: ({ filters, pageNum, pageSize }) =>
      listUsers({
        keyword: filters.keyword,
        nickName: filters.nickName,
        orgId: filters.orgId,
        pageNum,
        pageSize,
      }),
  })
  const { list, refresh } = screen
  const [keyword, setKeyword] = useDraft(list.filters.keyword || list.filters.nickName)
  const [creating, setCreating] = useState(false)
  const [foldedChoice, setFolded] = useState<boolean | null>(null)
  const folded = foldedChoice ?? narrow
  const columnsShown = useUserColumns()
  const [selected, setSelected] = useState<Map<number, UserListRow>>(new Map())
  const canAdd = useCanCall(routes.user.insert)
  const canImport = useCanCall(routes.import.userTemplate, routes.import.userImport, routes.import.job)
  const [importing, setImporting] = useState(false)
  // the department filter reads the department tree
  const canReadOrgs = useCanCall(routes.org.tree)
  const batch = useBatchPermissions()
  // editing a row and the batch's 冻结/启用 make the same calls
  const canEdit = batch.edit
  const statusSwitch = useStatusSwitch(me?.id, refresh, canEdit)
  const onImported = useCallback(() => void refresh(), [refresh])
  const resetPassword = useResetPassword()
  const canResetMfa = useCanCall(routes.mfa.reset)
  const resetMfa = useResetMfa(refresh)

  const optional = columnsShown.shown.map((key) => OPTIONAL_COLUMN_DEFS[key])
  const actionsWidth = canAnalyse ? 250 : 180
  const columns: TableColumnsType<UserListRow> = [
    // the date over the time: two narrow lines leave room for the columns an administrator reads
    { title: '创建时间', dataIndex: 'createTime', width: 100, render: formatDateTime },
    { title: '更新时间', dataIndex: 'updateTime', width: 100, render: formatDateTime },
    { title: '用户昵称', dataIndex: 'nickName', width: 120 },
    ...optional,
    {
      title: '状态',
      dataIndex: 'status',
      width: 80,
      render: (_: number, row) => statusSwitch.render(row),
    },
    // DESIGN.md §14: who signs in with a second factor
    {
      title: '两步验证',
      dataIndex: 'mfaEnabled',
      width: 90,
      render: (on?: boolean) => <MfaCell enabled={on} />,
    },
    {
      title: '操作',
      key: 'actions',
      width: actionsWidth,
      fixed: narrow ? undefined : 'right',
      render: (_: unknown, row) => (
        <Space size={0} wrap>
          <Button type="link" size="small" onClick={() => navigate(userInfoUrl(row))}>
            {canEdit ? '修改' : '查看'}
          </Button>
          {canAnalyse ? (
            <Button type="link" size="small" onClick={() => navigate(authzAnalysisUrl(row.id))}>
              权限分析
            </Button>
          ) : null}
          {row.id === me?.id ? null : (
            <>
              {/* SPEC.md §8: a user cannot delete themselves, so their own row offers no 删除 */}
              <DeleteLink
                title={confirmDeleteUser(row.nickName)}
                onConfirm={() => screen.removeRow(() => deleteUser(row.id))}
                call={routes.user.delete}
              />
              {canEdit && (
                <Button type="link" size="small" onClick={() => resetPassword.reset(row)}>
                  重置密码
                </Button>
              )}
              {canResetMfa && row.mfaEnabled ? (
                <Button type="link" size="small" onClick={() => resetMfa.reset(row)}>
                  重置两步验证
                </Button>
              ) : null}
            </>
          )}
        </Space>
      ),
    },
  ]
  const scrollX =
    40 + 100 + 100 + 120 + optional.reduce((sum, c) => sum + c.width, 0) + 80 + 90 + actionsWidth
  const selectedRows = [...selected.values()]

  return (
    <Screen title="用户管理">
      {statusSwitch.holder}
      {resetPassword.holder}
      {resetMfa.holder}
      <div style={{ display: 'flex', flexDirection: narrow ? 'column' : 'row', gap: narrow ? 0 : 16 }}>
        {canReadOrgs && (
          <OrgFilter
            orgId={list.filters.orgId}
            onChange={(orgId) => list.setFilters({ orgId })}
            folded={folded}
            onFold={setFolded}
            narrow={narrow}
          />
        )}
        <div style={{ flex: 1, minWidth: 0 }}>
          <ListQueryBar
            placeholder="请输入用户昵称、姓名或手机号"
            label="用户昵称、姓名或手机号"
            value={keyword}
            onChange={setKeyword}
            onSearch={(text) => list.setFilters({ keyword: text, nickName: '' })}
          >
            {canAdd && (
              <>
                <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
                  新建
                </Button>
                <Button onClick={() => navigate('/usermanage/adduser')}>新建（填写详细信息）</Button>
              </>
            )}
            {canImport && (
              <Button icon={<UploadOutlined />} onClick={() => setImporting(true)}>
                导入
              </Button>
            )}
            <ExportButton
              route={routes.import.userExport}
              params={exportParams(list.filters)}
              fallbackName="用户.xlsx"
            />
            <ColumnSettings shown={columnsShown.shown} onChange={columnsShown.change} />
          </ListQueryBar>
          <ImportDialog
            open={importing}
            onClose={() => setImporting(false)}
            title="导入用户"
            template={routes.import.userTemplate}
            upload={routes.import.userImport}
            templateName="用户导入模板.xlsx"
            onImported={onImported}
          />
          {selectedRows.length ? (
            <BatchActions
              selected={selectedRows}
              meId={me?.id}
              onClear={() => setSelected(new Map())}
              onDone={refresh}
            />
          ) : null}
          <Table<UserListRow>
            rowKey="id"
            size="middle"
            data-testid="user-table"
            columns={columns}
            dataSource={screen.rows}
            loading={screen.loading}
            pagination={false}
            scroll={{ x: scrollX }}
            rowSelection={
              batch.any
                ? {
                    columnWidth: 40,
                    preserveSelectedRowKeys: true,
                    selectedRowKeys: [...selected.keys()],
                    getTitleCheckboxProps: () => ({ 'aria-label': '全选本页' }),
                    getCheckboxProps: (row) => ({ 'aria-label': `选择 ${row.nickName}` }),
                    onChange: (keys, rows) =>
                      setSelected(
                        new Map(
                          keys.flatMap((key) => {
                            const row = rows.find((r) => r?.id === key) ?? selected.get(Number(key))
                            return row ? [[row.id, row] as const] : []
                          }),
                        ),
                      ),
                  }
                : undefined
            }
          />
          <div style={{ marginTop: 16, display: 'flex', justifyContent: 'flex-end' }}>
            <Pagination
              total={screen.page?.total ?? 0}
              estimated={screen.page?.totalIsEstimate}
              current={list.pageNum}
              pageSize={list.pageSize}
              pageSizes={screen.pageSizes}
              onChange={(pageNum, pageSize) => list.setPage(pageNum, pageSize)}
            />
          </div>
        </div>
      </div>
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
        请输入用户昵称。新用户状态为正常，以系统预设的初始密码登录，登录后会被提示修改密码；要设置其他密码，请用“新建（填写详细信息）”或创建后的“重置密码”。
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

/** The list's filters as the export's query (empty ones left out). */
function exportParams(filters: {
  keyword?: string
  nickName?: string
  orgId?: number | null
  status?: number | null
}) {
  return {
    ...(filters.keyword ? { keyword: filters.keyword } : {}),
    ...(filters.nickName ? { nickName: filters.nickName } : {}),
    ...(filters.orgId != null ? { orgId: filters.orgId } : {}),
    ...(filters.status != null ? { status: filters.status } : {}),
  }
}
