import { useQuery } from '@tanstack/react-query'
import {
  logTimeText,
  routes,
  type DeliveryRow,
  type Json,
  type WebhookPage,
  type WebhookRow,
} from '@amg/contract'
import { Button, Drawer, Space, Table, Tag, Tooltip, Typography, type TableColumnsType } from 'antd'
import { useState } from 'react'
import { DeleteLink, ListTable } from '../../components/list-screen'
import { FilterSearchBar } from '../../components/filter-search-bar'
import { useKeywordListScreen } from '../../components/keyword-list-screen'
import { SecretOnceDialog } from '../../components/secret-once-dialog'
import { useCanCall } from '../../lib/can-call'
import { toastSuccess } from '../../lib/feedback'
import { Screen } from '../../lib/ui/screen'
import {
  WEBHOOK_LIST_KEY,
  deleteWebhook,
  listDeliveries,
  listWebhooks,
  redeliver,
  rotateWebhookSecret,
  testWebhook,
} from './api'
import { WebhookFormDialog } from './webhook-form'
import { actionsColumn, formatTime } from '../../components/list-columns'

type Row = Json<WebhookRow>
type Delivery = Json<DeliveryRow>

const DELIVERY_STATUS: Record<string, { color: string; label: string }> = {
  pending: { color: 'processing', label: '待投递' },
  succeeded: { color: 'success', label: '成功' },
  failed: { color: 'error', label: '失败' },
  withheld: { color: 'default', label: '超出创建者范围，未发送' },
}

/** 投递记录 of one endpoint, newest first, each with 重新投递. */
function DeliveriesDrawer({ endpoint, onClose }: { endpoint: Row | null; onClose(): void }) {
  const [page, setPage] = useState({ pageNum: 1, pageSize: 10 })
  const canRedeliver = useCanCall(routes.webhook.redeliver)
  const deliveries = useQuery({
    queryKey: ['webhook', 'deliveries', endpoint?.id, page],
    queryFn: () => listDeliveries({ id: endpoint!.id, ...page }),
    enabled: endpoint !== null,
  })
  const again = async (row: Delivery) => {
    try {
      await redeliver(row.id)
      toastSuccess('已重新投递')
      await deliveries.refetch()
    } catch {
      // the HTTP layer has shown the message
    }
  }
  const columns: TableColumnsType<Delivery> = [
    { title: '事件', dataIndex: 'eventType', width: 170 },
    {
      title: '状态',
      dataIndex: 'status',
      width: 90,
      render: (s: string) => <Tag color={DELIVERY_STATUS[s]?.color}>{DELIVERY_STATUS[s]?.label ?? s}</Tag>,
    },
    { title: '尝试次数', dataIndex: 'attempts', width: 90 },
    { title: '响应码', dataIndex: 'lastStatusCode', width: 80 },
    { title: '耗时 (ms)', dataIndex: 'lastDurationMs', width: 90 },
    {
      title: '响应',
      dataIndex: 'lastResponse',
      ellipsis: true,
      render: (text: string | null) => <Tooltip title={text}>{text}</Tooltip>,
    },
    // the server's zone with its offset, as the logs show their times
    { title: '最近尝试', dataIndex: 'lastAttemptAt', width: 210, render: logTimeText },
    {
      title: '操作',
      key: 'actions',
      width: 100,
      render: (_, row) =>
        canRedeliver ? (
          <Button type="link" size="small" onClick={() => void again(row)}>
            重新投递
          </Button>
        ) : null,
    },
  ]
  return (
    <Drawer
      title={`投递记录：${endpoint?.name ?? ''}`}
      open={endpoint !== null}
      onClose={onClose}
      size={1000}
    >
      <Table<Delivery>
        rowKey="id"
        size="small"
        data-testid="delivery-table"
        columns={columns}
        dataSource={deliveries.data?.list ?? []}
        loading={deliveries.isFetching}
        scroll={{ x: 900 }}
        pagination={{
          current: page.pageNum,
          pageSize: page.pageSize,
          total: deliveries.data?.total ?? 0,
          onChange: (pageNum, pageSize) => setPage({ pageNum, pageSize }),
        }}
      />
    </Drawer>
  )
}

/**
 * Webhook 管理 (DESIGN.md §17): the endpoints that hear of changes, their secrets (shown once), test
 * pings, and each endpoint's delivery log with 重新投递.
 */
export function WebhookListPage() {
  const screen = useKeywordListScreen({ queryKey: WEBHOOK_LIST_KEY, fetch: listWebhooks })
  const { list, refresh, removeRow } = screen
  const [dialog, setDialog] = useState<{ editing?: Row } | null>(null)
  const [secret, setSecret] = useState<string | null>(null)
  const [deliveriesOf, setDeliveriesOf] = useState<Row | null>(null)
  const canAdd = useCanCall(routes.webhook.insert)
  const canEdit = useCanCall(routes.webhook.update)
  const canRotate = useCanCall(routes.webhook.rotateSecret)
  const canTest = useCanCall(routes.webhook.test)
  const canSeeDeliveries = useCanCall(routes.webhook.deliveries)

  const act = async (action: () => Promise<unknown>, done: string) => {
    try {
      await action()
      toastSuccess(done)
    } catch {
      // the HTTP layer has shown the message
    }
  }

  const columns: TableColumnsType<Row> = [
    { title: '名称', dataIndex: 'name', width: 160 },
    { title: '地址', dataIndex: 'url', ellipsis: true },
    {
      title: '事件类型',
      dataIndex: 'eventTypes',
      width: 240,
      render: (types: string[]) => (
        <Space size={[0, 4]} wrap>
          {types.map((t) => (
            <Tag key={t}>{t === '*' ? '全部事件' : t}</Tag>
          ))}
        </Space>
      ),
    },
    {
      title: '状态',
      key: 'state',
      width: 130,
      render: (_, row) =>
        row.disabledReason ? (
          <Tooltip title={row.disabledReason}>
            <Tag color="error">已自动停用</Tag>
          </Tooltip>
        ) : row.enabled ? (
          row.failingSince ? (
            <Tooltip title={`自 ${formatTime(row.failingSince)} 起投递失败`}>
              <Tag color="warning">投递失败中</Tag>
            </Tooltip>
          ) : (
            <Tag color="success">启用</Tag>
          )
        ) : (
          <Tag>停用</Tag>
        ),
    },
    { title: '创建时间', dataIndex: 'createTime', width: 170, render: formatTime },
    actionsColumn<Row>(
      330,
      (row) => (
        <>
          {canEdit ? (
            <Button type="link" size="small" onClick={() => setDialog({ editing: row })}>
              修改
            </Button>
          ) : null}
          {canTest ? (
            <Button
              type="link"
              size="small"
              onClick={() => void act(() => testWebhook(row.id), '已发送测试事件')}
            >
              测试
            </Button>
          ) : null}
          {canSeeDeliveries ? (
            <Button type="link" size="small" onClick={() => setDeliveriesOf(row)}>
              投递记录
            </Button>
          ) : null}
          {canRotate ? (
            <Button
              type="link"
              size="small"
              onClick={() =>
                void rotateWebhookSecret(row.id).then(
                  (r) => setSecret(r.secret),
                  () => undefined,
                )
              }
            >
              轮换密钥
            </Button>
          ) : null}
          <DeleteLink
            title={`此操作将永久删除 Webhook「${row.name}」, 是否继续?`}
            onConfirm={() => removeRow(() => deleteWebhook(row.id))}
            call={routes.webhook.delete}
            cancelNotice
          />
        </>
      ),
      true,
    ),
  ]

  return (
    <Screen title="Webhook 管理">
      <Typography.Paragraph type="secondary">
        用户、角色、权限、组织和会话发生变化时，向这些地址推送按 Standard Webhooks
        签名的事件；失败会在一天内多次重试。
      </Typography.Paragraph>
      <FilterSearchBar
        list={list}
        filter="keyword"
        placeholder="按名称或地址搜索"
        onAdd={canAdd ? () => setDialog({}) : undefined}
      />
      <ListTable<Row> screen={screen} columns={columns} scrollX={1100} data-testid="webhook-table" />
      <WebhookFormDialog
        key={dialog?.editing?.id ?? 'new'}
        open={dialog !== null}
        editing={dialog?.editing as WebhookRow | undefined}
        // the list's answer carries it (WebhookPage); the list screen types only its rows
        allowPrivate={(screen.page as WebhookPage | undefined)?.allowPrivate ?? false}
        onClose={() => setDialog(null)}
        onSaved={async (newSecret) => {
          setDialog(null)
          if (newSecret) setSecret(newSecret)
          await refresh()
        }}
      />
      <SecretOnceDialog
        title="Webhook 密钥"
        secret={secret}
        secretLabel="密钥"
        purpose="请复制后交给接收方，用于校验 webhook-signature。"
        testId="webhook-secret"
        onClose={() => setSecret(null)}
      />
      <DeliveriesDrawer endpoint={deliveriesOf} onClose={() => setDeliveriesOf(null)} />
    </Screen>
  )
}
