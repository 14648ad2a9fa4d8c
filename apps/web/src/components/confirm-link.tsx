import { Button, Popconfirm } from 'antd'
import type { ReactNode } from 'react'

/**
 * A row's danger link (删除, 移除, 吊销, 强制下线, …) that acts only once its confirmation (确定 / 取消)
 * is accepted.
 */
export function ConfirmLink({
  title,
  onConfirm,
  onCancel,
  disabled,
  children,
}: {
  title: ReactNode
  onConfirm: () => unknown
  onCancel?: () => void
  disabled?: boolean
  children: ReactNode
}) {
  return (
    <Popconfirm
      title={title}
      okText="确定"
      cancelText="取消"
      disabled={disabled}
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      <Button type="link" size="small" danger disabled={disabled}>
        {children}
      </Button>
    </Popconfirm>
  )
}
