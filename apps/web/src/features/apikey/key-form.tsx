import { MSG } from '@amg/contract'
import { Alert, Form, Input } from 'antd'
import { DatePicker } from '../../components/date-picker'
import { DialogForm } from '../../components/dialog-form'
import dayjs from '../../lib/dayjs'
import { SearchSelect } from '../../components/search-select'
import { userNameOptions } from '../../components/name-search'
import { insertApiKey } from './api'

interface Values {
  userId?: number
  name?: string
  /** 'YYYY-MM-DD', the last day the key works; empty: it does not expire */
  expiresOn?: string | null
}

/** The key's last moment: the end of the chosen day where the console runs. */
export const expiryOfDay = (day: string) => dayjs(day, 'YYYY-MM-DD').endOf('day').toISOString()

/** The user a key acts as: searched by name, the signed-in administrator offered first. */
function KeyUserSelect({
  value,
  onChange,
  self,
}: {
  value?: number
  onChange?: (id: number) => void
  self: { id: number; nickName: string }
}) {
  return (
    <SearchSelect
      id="apikey_user"
      label="所属用户"
      search={userNameOptions}
      first={{ value: self.id, label: self.nickName }}
      value={value}
      onChange={onChange}
    />
  )
}

/**
 * 新建 API 密钥 (DESIGN.md §16): the user the key acts as (with that user's whole power, so the server
 * refuses a user stronger than the maker), a name and an optional last day. The key itself is handed
 * to `onCreated`, which shows it once.
 */
export function ApiKeyFormDialog({
  open,
  self,
  onClose,
  onCreated,
}: {
  open: boolean
  self: { id: number; nickName: string }
  onClose(): void
  onCreated(key: string): void
}) {
  return (
    // a click beside this dialog closes it, as it always has
    <DialogForm<Values>
      what="API 密钥"
      save={async (values, form) => {
        const { key } = await insertApiKey({
          userId: values.userId!,
          name: values.name!.trim(),
          expiresAt: values.expiresOn ? expiryOfDay(values.expiresOn) : null,
        })
        form.resetFields()
        onCreated(key)
      }}
      title="新建 API 密钥"
      open={open}
      onClose={onClose}
      mask={undefined}
      intro={
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          title="密钥以所属用户的身份和全部权限调用接口，请只为需要的账号（如应用的服务账号）创建。"
        />
      }
      fields={{ layout: 'vertical', initialValues: { userId: self.id } }}
    >
      <Form.Item name="userId" label="所属用户" rules={[{ required: true, message: MSG.apiKeyUserRequired }]}>
        <KeyUserSelect self={self} />
      </Form.Item>
      <Form.Item
        name="name"
        label="名称"
        rules={[
          { required: true, whitespace: true, message: MSG.apiKeyNameRequired },
          { max: 64, message: '名称最多 64 个字符' },
        ]}
      >
        <Input id="apikey_name" aria-label="名称" placeholder="如 报表同步" maxLength={64} autoFocus />
      </Form.Item>
      <Form.Item
        name="expiresOn"
        label="有效期至"
        extra="不填则永不过期；密钥在所选日期结束时失效"
        rules={[
          {
            validator: async (_, day?: string | null) => {
              if (day && dayjs(expiryOfDay(day)).isBefore(dayjs())) throw new Error(MSG.apiKeyExpiryPast)
            },
          },
        ]}
      >
        <DatePicker id="apikey_expiry" placeholder="永不过期" />
      </Form.Item>
    </DialogForm>
  )
}
