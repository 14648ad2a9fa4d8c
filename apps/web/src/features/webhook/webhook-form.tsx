import { ALL_EVENTS, EVENT_TYPES, MSG, WEBHOOK_MSG, type WebhookRow } from '@amg/contract'
import { Form, Input, Select, Switch } from 'antd'
import { DialogForm } from '../../components/dialog-form'
import { toastSuccess } from '../../lib/feedback'
import { insertWebhook, updateWebhook } from './api'

interface WebhookFormValues {
  name: string
  url: string
  eventTypes: string[]
  enabled: boolean
}

const EVENT_OPTIONS = [
  { value: ALL_EVENTS, label: '全部事件 (*)' },
  ...EVENT_TYPES.map((type) => ({ value: type, label: type })),
]

/** The address's help, true to the server's WEBHOOK_ALLOW_PRIVATE (told with the list). */
export const webhookUrlHelp = (allowPrivate: boolean) =>
  allowPrivate
    ? '接收事件的 http:// 或 https:// 地址；本服务已开启 WEBHOOK_ALLOW_PRIVATE，也可指向本机和内网地址'
    : '接收事件的 http:// 或 https:// 地址；不能指向本机、内网或云元数据地址'

/**
 * 新建 / 修改 Webhook in a dialog. A new endpoint's secret comes back once: `onSaved` hands it to
 * the screen, which shows it.
 */
export function WebhookFormDialog({
  editing,
  open,
  allowPrivate,
  onClose,
  onSaved,
}: {
  editing?: WebhookRow
  /** the server lets targets be private (WebhookPage's allowPrivate) */
  allowPrivate: boolean
  open: boolean
  onClose(): void
  onSaved(secret?: string): Promise<void> | void
}) {
  return (
    <DialogForm<WebhookFormValues>
      what="Webhook"
      save={async (values) => {
        const body = { ...values, name: values.name.trim(), url: values.url.trim() }
        if (editing) {
          await updateWebhook({ id: editing.id, ...body })
          toastSuccess(MSG.updated)
          await onSaved()
        } else {
          const created = await insertWebhook(body)
          toastSuccess(MSG.created)
          await onSaved(created.secret)
        }
      }}
      title={editing ? '修改 Webhook' : '新建 Webhook'}
      open={open}
      onClose={onClose}
      fields={{
        layout: 'vertical',
        initialValues: editing
          ? { name: editing.name, url: editing.url, eventTypes: editing.eventTypes, enabled: editing.enabled }
          : { name: '', url: '', eventTypes: [], enabled: true },
      }}
    >
      <Form.Item
        name="name"
        label="名称"
        rules={[{ required: true, whitespace: true, message: WEBHOOK_MSG.nameRequired }]}
      >
        <Input aria-label="名称" maxLength={64} autoFocus />
      </Form.Item>
      <Form.Item
        name="url"
        label="地址"
        rules={[{ required: true, whitespace: true, message: WEBHOOK_MSG.urlRequired }]}
        extra={webhookUrlHelp(allowPrivate)}
      >
        <Input aria-label="地址" placeholder="https://example.com/hooks/amg" maxLength={2048} />
      </Form.Item>
      <Form.Item
        name="eventTypes"
        label="事件类型"
        rules={[{ required: true, type: 'array', min: 1, message: WEBHOOK_MSG.eventTypesRequired }]}
      >
        <Select
          aria-label="事件类型"
          mode="multiple"
          options={EVENT_OPTIONS}
          placeholder="选择要接收的事件"
        />
      </Form.Item>
      <Form.Item name="enabled" label="启用" valuePropName="checked">
        <Switch aria-label="启用" />
      </Form.Item>
    </DialogForm>
  )
}
