import { AMS_SERVICE_KEY, MSG } from '@amg/contract'
import { Button, Form, Input, Select } from 'antd'
import type { ReactNode } from 'react'
import type { CallQuestion } from './api'
import { useServiceChoices } from './service-choices'

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].map((m) => ({ value: m, label: m }))

/**
 * A service, a method and a path, as the tester and the who-can tab ask them. The path is checked
 * as the server checks it (it must start with '/'); the query string may stay, the server ignores it.
 */
export function CallForm({
  name,
  initial,
  submitText,
  submitIcon,
  loading,
  onSubmit,
}: {
  /** Prefixes the fields' ids: the tester and the who-can form may both be on the page. */
  name: string
  initial?: Partial<CallQuestion>
  submitText: string
  submitIcon?: ReactNode
  loading?: boolean
  onSubmit(call: CallQuestion): void
}) {
  const services = useServiceChoices()
  return (
    <Form<CallQuestion>
      name={name}
      layout="inline"
      initialValues={{ service: AMS_SERVICE_KEY, method: 'GET', path: '', ...initial }}
      onFinish={(v) => onSubmit({ service: v.service, method: v.method, path: v.path.trim() })}
      style={{ rowGap: 8 }}
    >
      <Form.Item name="service" style={{ width: 200 }}>
        <Select aria-label="服务" options={services} showSearch={{ optionFilterProp: 'label' }} />
      </Form.Item>
      <Form.Item name="method" style={{ width: 112 }}>
        <Select aria-label="请求方法" options={METHODS} />
      </Form.Item>
      <Form.Item
        name="path"
        style={{ flex: '1 1 260px', maxWidth: 440 }}
        rules={[
          { required: true, whitespace: true, message: '请输入路径' },
          { pattern: /^\s*\//, message: MSG.callPathSlash },
        ]}
      >
        <Input aria-label="路径" placeholder="如 /user/list" allowClear maxLength={2048} />
      </Form.Item>
      <Form.Item>
        <Button type="primary" htmlType="submit" icon={submitIcon} loading={loading}>
          {submitText}
        </Button>
      </Form.Item>
    </Form>
  )
}

/** Whose paths the form takes (docs/integration.md): this server's without /api, another's as forwarded. */
export const CALL_HINT =
  '只有所选服务的权限参与判断。本系统（ams）的接口不带 /api 前缀（如 POST /user/list）；其他服务的路径按网关转发的原样填写，查询串不参与判断。'
