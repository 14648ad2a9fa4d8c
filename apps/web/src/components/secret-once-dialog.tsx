import { Alert, Modal, Typography } from 'antd'
import type { ReactNode } from 'react'

/** A value shown beside the secret, with a label and a copy button (the client ID a secret goes with). */
export interface ShownValue {
  label: string
  value: string
}

/**
 * A secret the server has just made, shown this once: the warning that it cannot be seen again, what
 * it is for, then the secret (after any value that goes with it), each with a copy button. A click
 * beside the dialog does not close it: the secret would be gone for good.
 */
export function SecretOnceDialog({
  title,
  secret,
  secretLabel,
  purpose,
  alongside = [],
  testId,
  onClose,
}: {
  title: string
  /** null: the dialog is closed */
  secret: string | null
  secretLabel: string
  /** what the secret is for, under the warning */
  purpose?: ReactNode
  alongside?: ShownValue[]
  /** the test id of the secret's text */
  testId: string
  onClose(): void
}) {
  return (
    <Modal
      title={title}
      open={secret !== null}
      onOk={onClose}
      onCancel={onClose}
      okText="我已保存"
      cancelButtonProps={{ style: { display: 'none' } }}
      mask={{ closable: false }}
      destroyOnHidden
    >
      <Alert
        type="warning"
        showIcon
        title="密钥只显示这一次，关闭后无法再次查看，请立即妥善保存。"
        description={purpose}
      />
      {alongside.map(({ label, value }) => (
        <p key={label} style={{ marginTop: 16 }}>
          {label}：
          <Typography.Text code copyable>
            {value}
          </Typography.Text>
        </p>
      ))}
      <p style={{ marginTop: 16 }}>
        {secretLabel}：
        <Typography.Text code copyable data-testid={testId}>
          {secret}
        </Typography.Text>
      </p>
    </Modal>
  )
}
