import { Drawer } from 'antd'
import type { ReactNode } from 'react'

/**
 * The side menu on a phone: a drawer from the left over the screen, so the screen keeps the whole
 * width. The menu itself comes from the layout (as children): this chunk then holds antd's Drawer
 * only, and the menu's code stays where the desktop frame already has it.
 */
export function MenuDrawer({
  open,
  onClose,
  children,
}: {
  open: boolean
  onClose: () => void
  children: ReactNode
}) {
  return (
    <Drawer
      placement="left"
      open={open}
      onClose={onClose}
      size={260}
      closable={false}
      title={null}
      styles={{ body: { padding: 0 } }}
    >
      {children}
    </Drawer>
  )
}
