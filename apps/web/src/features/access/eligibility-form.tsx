import { useQuery } from '@tanstack/react-query'
import { Form, InputNumber, Radio, Select, Switch } from 'antd'
import { useState } from 'react'
import { ACCESS_MINUTES, ACCESS_MSG, MSG } from '@amg/contract'
import { FormDialog, useFormSubmit } from '../../components/form-dialog'
import { toastSuccess } from '../../lib/feedback'
import { grantEligibility, searchRoles, searchUsers } from './api'

interface Values {
  userId?: number
  roleId?: number
  maxMinutes: number
  requireReason: boolean
  requireMfa: boolean
  approvals: 0 | 1 | 2
}

/** A select that asks the server as the user types (the user and role names, within the caller's reach). */
function SearchSelect({
  id,
  label,
  search,
  value,
  onChange,
}: {
  id: string
  label: string
  search: (typed: string) => Promise<{ value: number; label: string }[]>
  value?: number
  onChange?: (id: number) => void
}) {
  const [typed, setTyped] = useState('')
  const options = useQuery({ queryKey: ['access', id, typed], queryFn: () => search(typed.trim()) })
  return (
    <Select
      id={id}
      aria-label={label}
      showSearch={{ filterOption: false, onSearch: setTyped }}
      value={value}
      onChange={onChange}
      options={options.data ?? []}
      placeholder={`选择${label}`}
    />
  )
}

const userOptions = async (typed: string) =>
  ((await searchUsers(typed)).list ?? []).map((u) => ({ value: u.id, label: u.nickName }))
const roleOptions = async (typed: string) =>
  (await searchRoles(typed)).map((r) => ({ value: r.id, label: r.roleName }))

/**
 * 新建临时授权 (DESIGN.md §20): the user may later activate the role for at most `maxMinutes`, giving a
 * reason and a two-step code when asked, with 0, 1 or 2 approvals. The server checks that the caller
 * could link the role to that user themselves.
 */
export function EligibilityFormDialog({
  open,
  onClose,
  onDone,
}: {
  open: boolean
  onClose(): void
  onDone(): void
}) {
  const [form] = Form.useForm<Values>()
  const { saving, submit } = useFormSubmit(form, '临时授权', async (values) => {
    await grantEligibility({
      userId: values.userId!,
      roleId: values.roleId!,
      maxMinutes: values.maxMinutes,
      requireReason: values.requireReason,
      requireMfa: values.requireMfa,
      approvals: values.approvals,
    })
    toastSuccess(MSG.created)
    form.resetFields()
    onDone()
  })
  return (
    <FormDialog open={open} title="新建临时授权" saving={saving} onOk={submit} onClose={onClose}>
      <Form<Values>
        form={form}
        layout="vertical"
        initialValues={{ maxMinutes: 60, requireReason: true, requireMfa: false, approvals: 0 }}
      >
        <Form.Item label="用户" name="userId" rules={[{ required: true, message: '请选择用户' }]}>
          <SearchSelect id="eligibility_user" label="用户" search={userOptions} />
        </Form.Item>
        <Form.Item label="角色" name="roleId" rules={[{ required: true, message: '请选择角色' }]}>
          <SearchSelect id="eligibility_role" label="角色" search={roleOptions} />
        </Form.Item>
        <Form.Item
          label="最长激活时长（分钟）"
          name="maxMinutes"
          rules={[{ required: true, message: ACCESS_MSG.maxMinutesInvalid }]}
        >
          <InputNumber
            min={ACCESS_MINUTES.min}
            max={ACCESS_MINUTES.max}
            precision={0}
            style={{ width: 160 }}
          />
        </Form.Item>
        <Form.Item label="激活时须填写理由" name="requireReason" valuePropName="checked">
          <Switch />
        </Form.Item>
        <Form.Item label="激活时须输入两步验证码" name="requireMfa" valuePropName="checked">
          <Switch />
        </Form.Item>
        <Form.Item label="审批人数" name="approvals">
          <Radio.Group
            options={[
              { value: 0, label: '无需审批' },
              { value: 1, label: '1 人' },
              { value: 2, label: '2 人' },
            ]}
          />
        </Form.Item>
      </Form>
    </FormDialog>
  )
}
