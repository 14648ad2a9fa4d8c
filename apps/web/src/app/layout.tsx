import {
  KeyOutlined,
  LogoutOutlined,
  MenuFoldOutlined,
  MenuUnfoldOutlined,
  UserOutlined,
} from '@ant-design/icons'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { Alert, Button, Layout, Space, Spin, Tooltip, theme } from 'antd'
import { useEffect, useState } from 'react'
import { Navigate, useLocation, useNavigate } from 'react-router'
import { PageGuard } from './page-guard'
import { readMenuCollapsed, writeMenuCollapsed } from '../lib/menu-memory'
import type { ReturnState } from '../lib/return-path'
import { deviceFor, useSession } from '../lib/session-store'
import { AppearanceSwitch } from './appearance-switch'
import { Breadcrumbs } from './breadcrumbs'
import { MENU_COLLAPSED_DEFAULT } from './menu'
import { PasswordDialogLoader } from './password-dialog-loader'
import { SideMenu } from './side-menu'

export const INITIAL_PASSWORD_WARNING = '当前账号仍在使用初始密码，请尽快修改密码。'

/** Keeps the session's device value in step with the window width. */
function useDeviceTracking() {
  const setDevice = useSession((s) => s.setDevice)
  useEffect(() => {
    const update = () => setDevice(deviceFor(window.innerWidth))
    update()
    window.addEventListener('resize', update)
    return () => window.removeEventListener('resize', update)
  }, [setDevice])
}

/**
 * The signed-in frame: header (user, sign-out), side menu, breadcrumb and the screen. A signed-out
 * visitor is sent to '/' (the (auth) routes of SPEC.md §2 and everything below them).
 */
export function AppLayout() {
  const token = useSession((s) => s.token)
  if (!token) return <ToSignIn />
  return <SignedInLayout />
}

/** To '/', remembering the page asked for (unless the user signed out), so signing in returns there. */
function ToSignIn() {
  const location = useLocation()
  const signedOut = useSession((s) => s.signedOut)
  const state: ReturnState | undefined = signedOut ? undefined : { from: location.pathname + location.search }
  return <Navigate to="/" replace state={state} />
}

function SignedInLayout() {
  const user = useSession((s) => s.user)
  const loadCurrentUser = useSession((s) => s.loadCurrentUser)
  const loadConfig = useSession((s) => s.loadConfig)
  // as the user left it in this browser; folding for a narrow window below is not a choice, not kept
  const [collapsed, setCollapsed] = useState(() => readMenuCollapsed(MENU_COLLAPSED_DEFAULT))
  const [changingPassword, setChangingPassword] = useState(false)
  const { token: colors } = theme.useToken()
  const mobile = useSession((s) => s.device) === 'mobile'
  useDeviceTracking()

  const current = useQuery({
    queryKey: ['user', 'current'],
    queryFn: loadCurrentUser,
    enabled: !user,
    retry: false,
  })
  useQuery({
    queryKey: ['config'],
    queryFn: async () => (await loadConfig(), true),
    retry: false,
    staleTime: Infinity,
  })

  if (!user) {
    return (
      <div style={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
        <Spin size="large" spinning={!current.isError} />
      </div>
    )
  }

  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Layout.Sider
        collapsible
        collapsed={collapsed}
        trigger={null}
        width={220}
        collapsedWidth={64}
        // a narrow window keeps its width for the screen: the menu folds to icons
        breakpoint="md"
        onBreakpoint={(narrow) => narrow && setCollapsed(true)}
      >
        <div
          style={{
            height: 56,
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'center',
            color: '#fff',
            fontWeight: 600,
            whiteSpace: 'nowrap',
            overflow: 'hidden',
          }}
        >
          {collapsed ? '权限' : '角色权限管理系统'}
        </div>
        <SideMenu collapsed={collapsed} />
      </Layout.Sider>
      <Layout>
        <Layout.Header
          style={{
            background: colors.colorBgContainer,
            padding: '0 16px',
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'space-between',
            borderBottom: `1px solid ${colors.colorBorderSecondary}`,
          }}
        >
          <Tooltip title={collapsed ? '展开菜单' : '收起菜单'}>
            <Button
              type="text"
              aria-label={collapsed ? '展开菜单' : '收起菜单'}
              icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
              onClick={() => {
                writeMenuCollapsed(!collapsed)
                setCollapsed(!collapsed)
              }}
            />
          </Tooltip>
          {/* On a narrow window the actions keep their icons (and names for screen readers) only. */}
          <Space size={mobile ? 'small' : 'middle'}>
            <Space size={4}>
              <UserOutlined />
              {/* Typography.Text's look (Typography itself stays out of the first download) */}
              <span
                data-testid="current-user"
                style={{ color: colors.colorText, wordBreak: 'break-word', lineHeight: colors.lineHeight }}
              >
                {user.nickName}
              </span>
            </Space>
            <AppearanceSwitch compact={mobile} />
            <Button
              type="link"
              icon={<KeyOutlined />}
              aria-label="修改密码"
              onClick={() => setChangingPassword(true)}
            >
              {mobile ? null : '修改密码'}
            </Button>
            <SignOutButton compact={mobile} />
          </Space>
        </Layout.Header>
        {/* minWidth 0: a wide table scrolls inside its screen instead of widening the page */}
        <Layout.Content style={{ padding: mobile ? 8 : 16, minWidth: 0 }}>
          {user.passwordIsInitial && (
            <Alert
              type="warning"
              showIcon
              title={INITIAL_PASSWORD_WARNING}
              action={
                <Button size="small" type="primary" onClick={() => setChangingPassword(true)}>
                  立即修改
                </Button>
              }
              style={{ marginBottom: 16 }}
            />
          )}
          <Breadcrumbs />
          <PageGuard />
        </Layout.Content>
        <PasswordDialogLoader open={changingPassword} onClose={() => setChangingPassword(false)} />
      </Layout>
    </Layout>
  )
}

/**
 * 退出登录. The router's hooks live here rather than in the frame: a component that uses them renders
 * again on every navigation, and the frame (header, banner) has no reason to.
 */
function SignOutButton({ compact }: { compact: boolean }) {
  const logout = useSession((s) => s.logout)
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const signOut = async () => {
    await logout()
    queryClient.clear()
    navigate('/', { replace: true })
  }
  return (
    <Button type="link" icon={<LogoutOutlined />} aria-label="退出登录" onClick={signOut}>
      {compact ? null : '退出登录'}
    </Button>
  )
}
