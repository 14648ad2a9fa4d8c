import { MSG } from '@amg/contract'
import { Button, Form, Input, Select } from 'antd'
import type { ReactNode } from 'react'
import type { CallQuestion } from './api'

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].map((m) => ({ value: m, label: m }))

/**
 * A method and a path, as the tester and the who-can tab ask them. The path is checked as the
 * server checks it (it must start with '/'); the query string may stay, the server ignores it.
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
  return (
    <Form<CallQuestion>
      name={name}
      layout="inline"
      initialValues={{ method: 'GET', path: '', ...initial }}
      onFinish={(v) => onSubmit({ method: v.method, path: v.path.trim() })}
      style={{ rowGap: 8 }}
    >
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
  '本系统的接口不带 /api 前缀（如 POST /user/list）；其他服务的路径按网关转发的原样填写，查询串不参与判断。'
