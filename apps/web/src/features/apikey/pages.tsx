import { routes, type ApiKeyRow } from '@amg/contract'
import { Tag, Typography, type TableColumnsType } from 'antd'
import { useState } from 'react'
import { ListTable } from '../../components/list-screen'
import { FilterSearchBar } from '../../components/filter-search-bar'
import { useKeywordListScreen } from '../../components/keyword-list-screen'
import { useCanCall } from '../../lib/can-call'
import dayjs from '../../lib/dayjs'
import { useSession } from '../../lib/session-store'
import { Screen } from '../../lib/ui/screen'
import { API_KEY_LIST_KEY, listApiKeys, revokeApiKey } from './api'
import { SecretOnceDialog } from '../../components/secret-once-dialog'
import { ApiKeyFormDialog } from './key-form'
import { ConfirmLink } from '../../components/confirm-link'
import { formatTime } from '../../components/list-columns'

/** 已过期 once the expiry has passed; the server refuses the key from then on. */
function Expiry({ at }: { at: string | null }) {
  if (!at) return <Typography.Text type="secondary">永不过期</Typography.Text>
  const text = formatTime(at)
  return dayjs(at).isBefore(dayjs()) ? (
    <span>
      {text} <Tag color="error">已过期</Tag>
    </span>
  ) : (
    <span>{text}</span>
  )
}

/**
 * API 密钥 (DESIGN.md §16) at /apikeymanage: every key, whose it is, its prefix, expiry and last use;
 * 新建 shows the key once; 吊销 after a confirmation. The page is the `apikey` permission node's, so an
 * administrator finds the keys of every service account in one place (docs/decisions.md).
 */
export function ApiKeyListPage() {
  const screen = useKeywordListScreen({
    queryKey: API_KEY_LIST_KEY,
    refreshKey: ['apikey'],
    fetch: listApiKeys,
  })
  const { list, refresh, removeRow } = screen
  const me = useSession((s) => s.user)
  const canAdd = useCanCall(routes.apiKey.insert)
  const canRevoke = useCanCall(routes.apiKey.revoke)
  const [adding, setAdding] = useState(false)
  const [created, setCreated] = useState<string | null>(null)

  const columns: TableColumnsType<ApiKeyRow> = [
    { title: '名称', dataIndex: 'name', width: 180 },
    { title: '所属用户', dataIndex: 'nickName', width: 160 },
    {
      title: '前缀',
      dataIndex: 'prefix',
      width: 140,
      render: (prefix: string) => <Typography.Text code>{prefix}…</Typography.Text>,
    },
    {
      title: '有效期至',
      dataIndex: 'expiresAt',
      width: 220,
      render: (at: string | null) => <Expiry at={at} />,
    },
    {
      title: '最近使用',
      dataIndex: 'lastUsedTime',
      width: 180,
      render: (at: string | null) =>
        at ? formatTime(at) : <Typography.Text type="secondary">从未使用</Typography.Text>,
    },
    { title: '创建时间', dataIndex: 'createTime', width: 180, render: formatTime },
    { title: '创建人', dataIndex: 'createUserName', width: 120 },
    {
      title: '操作',
      key: 'actions',
      width: 100,
      render: (_, row) =>
        canRevoke ? (
          <ConfirmLink
            title={`吊销密钥“${row.name}”？使用它的调用将立即被拒绝。`}
            onConfirm={() => removeRow(() => revokeApiKey(row.id))}
          >
            吊销
          </ConfirmLink>
        ) : null,
    },
  ]

  return (
    <Screen title="API 密钥">
      <Typography.Paragraph type="secondary">
        无法使用 OAuth 的服务用 API 密钥调用接口（Authorization: Bearer ak_…），以所属用户的身份和权限。
        密钥只在创建时显示一次，本系统只保存其摘要。
      </Typography.Paragraph>
      <FilterSearchBar
        list={list}
        filter="keyword"
        placeholder="按密钥名称或所属用户搜索"
        onAdd={canAdd ? () => setAdding(true) : undefined}
      />
      <ListTable<ApiKeyRow> screen={screen} columns={columns} scrollX={1100} data-testid="apikey-table" />
      {me ? (
        <ApiKeyFormDialog
          open={adding}
          self={{ id: me.id, nickName: me.nickName }}
          onClose={() => setAdding(false)}
          onCreated={(key) => {
            setAdding(false)
            setCreated(key)
            void refresh()
          }}
        />
      ) : null}
      <SecretOnceDialog
        title="API 密钥已创建"
        secret={created}
        secretLabel="密钥"
        purpose="调用接口时放在请求头：Authorization: Bearer <密钥>。"
        testId="apikey-secret"
        onClose={() => setCreated(null)}
      />
    </Screen>
  )
}
