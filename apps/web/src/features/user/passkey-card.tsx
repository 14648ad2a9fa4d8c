import { useQuery, useQueryClient } from '@tanstack/react-query'
import { Button, Form, Input, Popconfirm, Space, Table } from 'antd'
import { useState } from 'react'
import type { PasskeyItem } from '@amg/contract'
import { toastError, toastSuccess } from '../../lib/feedback'
import {
  browserProblem,
  cancelled,
  PasskeyBrowserError,
  passkeysSupported,
  registerPasskey,
} from '../../lib/passkey'
import { formatTime } from '../../components/list-columns'
import { FormDialog, useFormSubmit } from '../../components/form-dialog'
import { passkeyDelete, passkeyList, passkeyRename } from './api'

export const PASSKEY_ADDED = '通行密钥已添加'
export const PASSKEY_REMOVED = '通行密钥已删除'
export const PASSKEY_RENAMED = '通行密钥已重命名'
export const confirmDeletePasskey = (name: string) => `确定要删除通行密钥 ${name} 吗？`

/**
 * The passkeys of one user (DESIGN.md §23): the caller's own in 个人中心 (add with a name, rename,
 * delete), or another user's for an administrator (`userId`: rename and delete; the server checks
 * power and reach and ends that user's sessions on delete). A passkey is added only by its owner, on
 * their own device.
 */
export function PasskeyList({ userId, onAdded }: { userId?: number; onAdded?: () => void }) {
  const client = useQueryClient()
  const key = ['passkeys', userId ?? 'me']
  const list = useQuery({ queryKey: key, queryFn: () => passkeyList(userId) })
  const refresh = () => client.invalidateQueries({ queryKey: key })
  const [adding, setAdding] = useState(false)
  const [renaming, setRenaming] = useState<PasskeyItem | null>(null)
  const remove = async (row: PasskeyItem) => {
    try {
      await passkeyDelete(row.id, userId)
    } catch {
      return // the HTTP layer has shown why
    }
    toastSuccess(PASSKEY_REMOVED)
    await refresh()
  }
  return (
    <>
      <Table<PasskeyItem>
        rowKey="id"
        size="small"
        data-testid="passkey-table"
        loading={list.isLoading}
        dataSource={list.data?.list ?? []}
        pagination={false}
        locale={{ emptyText: '暂无通行密钥' }}
        columns={[
          { title: '名称', dataIndex: 'name' },
          { title: '添加时间', dataIndex: 'createTime', render: (v: string) => formatTime(v) },
          {
            title: '最近使用',
            dataIndex: 'lastUsedTime',
            render: (v: string | null) => (v ? formatTime(v) : '从未使用'),
          },
          {
            title: '操作',
            key: 'actions',
            render: (_: unknown, row) => (
              <Space size={0}>
                <Button type="link" size="small" onClick={() => setRenaming(row)}>
                  重命名
                </Button>
                <Popconfirm
                  title={confirmDeletePasskey(row.name)}
                  okText="确定"
                  cancelText="取消"
                  onConfirm={() => remove(row)}
                >
                  <Button type="link" size="small" danger>
                    删除
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      {userId === undefined ? (
        <Button type="primary" style={{ marginTop: 12 }} onClick={() => setAdding(true)}>
          添加通行密钥
        </Button>
      ) : null}
      <NameDialog
        title="添加通行密钥"
        open={adding}
        initial="我的设备"
        onClose={() => setAdding(false)}
        onSave={async (name) => {
          if (!passkeysSupported()) throw new PasskeyBrowserError(new Error('unsupported'))
          await registerPasskey(name)
          toastSuccess(PASSKEY_ADDED)
          setAdding(false)
          await refresh()
          onAdded?.()
        }}
      />
      <NameDialog
        title="重命名通行密钥"
        open={!!renaming}
        initial={renaming?.name ?? ''}
        onClose={() => setRenaming(null)}
        onSave={async (name) => {
          await passkeyRename(renaming!.id, name, userId)
          toastSuccess(PASSKEY_RENAMED)
          setRenaming(null)
          await refresh()
        }}
      />
    </>
  )
}

function NameDialog({
  title,
  open,
  initial,
  onClose,
  onSave,
}: {
  title: string
  open: boolean
  initial: string
  onClose: () => void
  onSave: (name: string) => Promise<void>
}) {
  const [form] = Form.useForm<{ name: string }>()
  const { saving, submit } = useFormSubmit(form, title, async ({ name }) => {
    try {
      await onSave(name.trim())
    } catch (err) {
      // the browser's refusal (cancelled, or an address it will not use); the server's was shown
      if (err instanceof PasskeyBrowserError) {
        if (!cancelled(err.cause)) toastError(browserProblem(err.cause))
        return
      }
      throw err
    }
  })
  return (
    <FormDialog title={title} open={open} saving={saving} onOk={submit} onClose={onClose}>
      <Form form={form} preserve={false} layout="vertical" initialValues={{ name: initial }}>
        <Form.Item
          label="名称"
          name="name"
          rules={[
            { required: true, whitespace: true, max: 64, message: '请输入通行密钥名称（最多 64 个字符）' },
          ]}
        >
          <Input autoFocus aria-label="通行密钥名称" />
        </Form.Item>
      </Form>
    </FormDialog>
  )
}
