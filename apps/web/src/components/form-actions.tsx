import { Button, Form, Space } from 'antd'
import type { ReactNode } from 'react'

/**
 * A form's buttons under its fields, lined up with the inputs: the submit button, where `submit`
 * names it, then the others (返回, 重置, …).
 */
export function FormActions({
  submit,
  saving,
  submitDisabled,
  children,
}: {
  /** the submit button's text; none: no submit button (a read-only form) */
  submit?: string
  saving?: boolean
  submitDisabled?: boolean
  children?: ReactNode
}) {
  return (
    <Form.Item label=" " colon={false}>
      <Space>
        {submit ? (
          <Button type="primary" htmlType="submit" loading={saving} disabled={submitDisabled}>
            {submit}
          </Button>
        ) : null}
        {children}
      </Space>
    </Form.Item>
  )
}
