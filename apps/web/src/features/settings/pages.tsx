import { useQuery, useQueryClient } from '@tanstack/react-query'
import {
  ADMINISTRATOR_EXPLAINED,
  routes,
  SECURITY_LIMITS,
  securitySettingsProblem,
  type SecuritySettings,
} from '@amg/contract'
import { Button, Form, InputNumber, Radio, Switch } from 'antd'
import { useState } from 'react'
import { useCanCall } from '../../lib/can-call'
import { toastError, toastSuccess } from '../../lib/feedback'
import { request } from '../../lib/route-call'
import { Screen } from '../../lib/ui/screen'

const KEY = ['settings', 'security']
export const SETTINGS_SAVED = '安全设置已保存'

/** A whole-number setting, held within the contract's bounds for it. */
function LimitItem(props: { name: keyof typeof SECURITY_LIMITS; label: string; extra: string }) {
  const { min, max } = SECURITY_LIMITS[props.name]
  return (
    <Form.Item label={props.label} name={props.name} extra={props.extra}>
      <InputNumber min={min} max={max} precision={0} />
    </Form.Item>
  )
}

/**
 * 安全设置 (DESIGN.md §14): the password policy and who must use two-step sign-in. Read with the page's
 * permission, saved with settings:security; the bounds are the contract's, checked here and again by
 * the server.
 */
export function SecuritySettingsPage() {
  const client = useQueryClient()
  const mayEdit = useCanCall(routes.settings.putSecurity)
  const [form] = Form.useForm<SecuritySettings>()
  const [saving, setSaving] = useState(false)
  const settings = useQuery({ queryKey: KEY, queryFn: () => request(routes.settings.getSecurity, {}) })

  const save = async () => {
    const values = { ...settings.data!, ...form.getFieldsValue() }
    const problem = securitySettingsProblem(values)
    if (problem) return toastError(problem)
    setSaving(true)
    try {
      await request(routes.settings.putSecurity, { body: values })
      toastSuccess(SETTINGS_SAVED)
      await client.invalidateQueries({ queryKey: KEY })
    } catch {
      // the error toast is already shown
    } finally {
      setSaving(false)
    }
  }

  return (
    <Screen title="安全设置">
      {settings.data ? (
        <Form
          form={form}
          initialValues={settings.data}
          layout="horizontal"
          labelCol={{ flex: '180px' }}
          disabled={!mayEdit}
          style={{ maxWidth: 640 }}
        >
          <LimitItem name="minLength" label="密码最短长度" extra="不低于 12 位" />
          <LimitItem name="minClasses" label="至少包含字符类别" extra="大写字母、小写字母、数字、特殊符号" />
          <Form.Item label="禁止包含用户名" name="notUsername" valuePropName="checked">
            <Switch />
          </Form.Item>
          <LimitItem name="historyCount" label="不得重复最近密码个数" extra="0 表示不限制" />
          <LimitItem name="expireDays" label="密码有效天数" extra="0 表示永不过期" />
          <Form.Item
            label="他人设置的密码须修改"
            name="forceChangeInitial"
            valuePropName="checked"
            extra="初始密码、管理员重置的密码在下次登录时必须修改"
          >
            <Switch />
          </Form.Item>
          <Form.Item
            label="两步验证"
            name="mfa"
            // who “管理员” is, in the server's own words (DESIGN.md §14)
            extra={<span data-testid="mfa-admins-explained">{ADMINISTRATOR_EXPLAINED}</span>}
          >
            <Radio.Group
              options={[
                { value: 'off', label: '不强制' },
                { value: 'admins', label: '管理员必须绑定' },
                { value: 'all', label: '所有用户必须绑定' },
                // DESIGN.md §23
                { value: 'admins-passkey', label: '管理员必须使用通行密钥' },
              ]}
            />
          </Form.Item>
          {mayEdit ? (
            <Form.Item label=" " colon={false}>
              <Button type="primary" loading={saving} onClick={() => void save()}>
                保存
              </Button>
            </Form.Item>
          ) : null}
        </Form>
      ) : null}
    </Screen>
  )
}
