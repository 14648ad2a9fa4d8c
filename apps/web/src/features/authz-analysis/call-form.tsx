import { AMS_SERVICE_KEY, MSG } from '@amg/contract'
import { AutoComplete, Button, Form, Input, Select } from 'antd'
import { useState, type ReactNode } from 'react'
import type { CallQuestion } from './api'
import { matchingCalls } from './known-calls'
import { useServiceChoices } from './service-choices'

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].map((m) => ({ value: m, label: m }))

/**
 * A service, a method and a path, as the tester and the who-can tab ask them. The path is checked
 * as the server checks it (it must start with '/'); the query string may stay, the server ignores it.
 * For this server's own API (ams) the path offers its calls as it is typed; choosing one sets the
 * method too, so a call is never asked with a method it does not have.
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
  const [form] = Form.useForm<CallQuestion>()
  const service = Form.useWatch('service', form) ?? initial?.service ?? AMS_SERVICE_KEY
  const [typed, setTyped] = useState('')
  const offered =
    service === AMS_SERVICE_KEY
      ? matchingCalls(typed).map((c) => ({
          value: `${c.method} ${c.path}`,
          label: `${c.method} ${c.path}  ${c.summary}`,
          call: c,
        }))
      : []
  return (
    <Form<CallQuestion>
      form={form}
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
        <AutoComplete
          options={offered}
          popupMatchSelectWidth={440}
          // Enter asks what was typed; a call is taken from the list only when chosen
          defaultActiveFirstOption={false}
          onSearch={setTyped}
          onSelect={(_value: string, option: (typeof offered)[number]) =>
            form.setFieldsValue({ method: option.call.method, path: option.call.path })
          }
        >
          <Input
            aria-label="路径"
            placeholder="如 /user/detail，或输入关键字选择接口"
            allowClear
            maxLength={2048}
          />
        </AutoComplete>
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
