import { Form, InputNumber, Radio, Switch } from 'antd'
import { ACCESS_MINUTES, ACCESS_MSG, MSG } from '@amg/contract'
import { FormDialog, useFormSubmit } from '../../components/form-dialog'
import { roleNameOptions, userNameOptions } from '../../components/name-search'
import { SearchSelect } from '../../components/search-select'
import { toastSuccess } from '../../lib/feedback'
import { grantEligibility } from './api'

interface Values {
  userId?: number
  roleId?: number
  maxMinutes: number
  requireReason: boolean
  requireMfa: boolean
  approvals: 0 | 1 | 2
}

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
          <SearchSelect id="eligibility_user" label="用户" search={userNameOptions} />
        </Form.Item>
        <Form.Item label="角色" name="roleId" rules={[{ required: true, message: '请选择角色' }]}>
          <SearchSelect id="eligibility_role" label="角色" search={roleNameOptions} />
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
