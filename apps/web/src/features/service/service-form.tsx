import { useQuery } from '@tanstack/react-query'
import { AMS_SERVICE_KEY, MSG, checkServiceKey, isBlank, type ServiceRow } from '@amg/contract'
import { Form, Input, Select, Typography } from 'antd'
import { DialogForm } from '../../components/dialog-form'
import { toastSuccess } from '../../lib/feedback'
import { antdRules } from '../../lib/validation'
import { fetchTopLevelNodes, insertService, listServices, updateService } from './api'

interface ServiceFormValues {
  key: string
  name: string
  rootCode?: string
}

const keyRules = [
  { required: true, whitespace: true, message: MSG.serviceKeyRequired },
  {
    validator: async (_rule: unknown, value: unknown) => {
      // a blank key is the rule above's to tell
      if (isBlank(value)) return
      const problem = checkServiceKey(typeof value === 'string' ? value.trim() : value)
      if (problem) throw new Error(problem)
    },
  },
]

/**
 * The root a new service may take over: a top-level node no other service owns. ams owns every node
 * outside the others' subtrees, so taking one over moves its power out of ams (the server checks the
 * caller covers it).
 */
function RootSelect({ value, onChange }: { value?: string; onChange?: (code?: string) => void }) {
  const nodes = useQuery({ queryKey: ['service', 'top-level-nodes'], queryFn: fetchTopLevelNodes })
  const owned = useQuery({
    queryKey: ['service', 'owned-roots'],
    queryFn: async () =>
      new Set((await listServices({ pageNum: 1, pageSize: 1000 })).list.map((s) => s.rootCode)),
  })
  const options = (nodes.data ?? [])
    .filter((n) => !owned.data?.has(n.code))
    .map((n) => ({ value: n.code, label: `${n.chName}（${n.code}）` }))
  return (
    <Select
      allowClear
      showSearch={{ optionFilterProp: 'label' }}
      aria-label="根权限"
      placeholder="不选则新建一个以服务名称命名的顶级权限"
      loading={nodes.isPending || owned.isPending}
      options={options}
      value={value}
      onChange={(code?: string) => onChange?.(code)}
    />
  )
}

/**
 * 新建 / 修改服务 in a dialog: a new service takes a key (fixed afterwards), a name and optionally an
 * existing top-level node as its root; editing changes the name only.
 */
export function ServiceFormDialog({
  editing,
  open,
  onClose,
  onSaved,
}: {
  /** the service to rename; undefined: a new one */
  editing?: ServiceRow
  open: boolean
  onClose(): void
  onSaved(): Promise<void> | void
}) {
  return (
    <DialogForm<ServiceFormValues>
      what="服务"
      save={async (values) => {
        if (editing) {
          await updateService({ id: editing.id, name: values.name.trim() })
          toastSuccess(MSG.updated)
        } else {
          await insertService({
            key: values.key.trim(),
            name: values.name.trim(),
            rootCode: values.rootCode ?? null,
          })
          toastSuccess(MSG.created)
        }
        await onSaved()
      }}
      title={editing ? '修改服务' : '新建服务'}
      open={open}
      onClose={onClose}
      fields={{
        layout: 'vertical',
        initialValues: editing ? { key: editing.key, name: editing.name } : { key: '', name: '' },
      }}
      submitOnEnter
    >
      <Form.Item
        name="key"
        label="服务标识"
        rules={editing ? undefined : keyRules}
        extra={
          editing
            ? '服务标识创建后不能修改'
            : '小写字母、数字和 -，网关按它询问：/api/authz/forward/<服务标识>'
        }
      >
        <Input
          aria-label="服务标识"
          placeholder="如 orders"
          maxLength={32}
          disabled={!!editing}
          autoFocus={!editing}
        />
      </Form.Item>
      <Form.Item name="name" label="服务名称" rules={antdRules.serviceName}>
        <Input aria-label="服务名称" placeholder="如 订单服务" maxLength={64} autoFocus={!!editing} />
      </Form.Item>
      {editing ? (
        editing.key === AMS_SERVICE_KEY ? (
          <Typography.Text type="secondary">
            内置服务：本系统自己的接口，拥有不属于其他服务的全部权限。
          </Typography.Text>
        ) : null
      ) : (
        <Form.Item
          name="rootCode"
          label="根权限"
          extra="服务只认可根权限之下的权限。选一个尚无服务的顶级权限时，它下面的权限从此只对该服务生效，不再对本系统生效"
        >
          <RootSelect />
        </Form.Item>
      )}
    </DialogForm>
  )
}
