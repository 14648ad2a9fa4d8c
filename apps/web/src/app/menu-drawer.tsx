import { Drawer, Layout } from 'antd'
import { SideMenu } from './side-menu'

/**
 * The side menu on a phone: a drawer from the left over the screen, so the screen keeps the whole
 * width. Choosing a screen closes it.
 */
export function MenuDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
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
      {/* a full-height Sider: the drawer wears the desktop side menu's colours, from the theme */}
      <Layout.Sider width="100%" style={{ minHeight: '100%' }} data-testid="menu-drawer">
        <div
          style={{
            height: 56,
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'center',
            color: '#fff',
            fontWeight: 600,
          }}
        >
          角色权限管理系统
        </div>
        <SideMenu onNavigate={onClose} />
      </Layout.Sider>
    </Drawer>
  )
}
