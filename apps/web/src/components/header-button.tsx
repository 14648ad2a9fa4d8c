import { Button } from 'antd'
import type { ReactNode } from 'react'

/**
 * A button of the signed-in header: its icon with its label beside it, or (compact, a narrow
 * window) the icon alone, the label then only its accessible name.
 */
export function HeaderButton({
  icon,
  label,
  compact,
  onClick,
}: {
  icon: ReactNode
  label: string
  compact?: boolean
  onClick: () => void
}) {
  return (
    <Button type="link" icon={icon} aria-label={label} onClick={onClick}>
      {compact ? null : label}
    </Button>
  )
}
