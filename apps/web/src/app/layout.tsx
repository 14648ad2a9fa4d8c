import {
  IdcardOutlined,
  KeyOutlined,
  LogoutOutlined,
  MenuFoldOutlined,
  MenuOutlined,
  MenuUnfoldOutlined,
  UserOutlined,
} from '@ant-design/icons'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { scopeLineText } from '@amg/contract'
import { Alert, Button, Layout, Space, Spin, Tooltip, theme } from 'antd'
import { lazy, Suspense, useEffect, useState } from 'react'
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
import { HeaderButton } from '../components/header-button'

// Only a restricted session (DESIGN.md §14) needs the forced dialogs: loaded then.
const RestrictedGate = lazy(async () => ({ default: (await import('./restricted-gate')).RestrictedGate }))

// The phone's menu drawer loads when it is first opened: a desktop never needs antd's Drawer.
const MenuDrawer = lazy(async () => ({ default: (await import('./menu-drawer')).MenuDrawer }))
// DESIGN.md §20: 我的权限 and 审批中心 with its count, loaded after the first screen
const HeaderAccessLinks = lazy(async () => ({
  default: (await import('../features/access/approval-badge')).HeaderAccessLinks,
}))

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
  // as the user left it in this browser (a phone shows the menu in a drawer instead)
  const [collapsed, setCollapsed] = useState(() => readMenuCollapsed(MENU_COLLAPSED_DEFAULT))
  const [drawerOpen, setDrawerOpen] = useState(false)
  const [drawerLoaded, setDrawerLoaded] = useState(false)
  const [changingPassword, setChangingPassword] = useState(false)
  const navigate = useNavigate()
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

  if (user.restricted)
    return (
      <Suspense fallback={null}>
        <RestrictedGate user={user} />
      </Suspense>
    )

  return (
    <Layout style={{ minHeight: '100vh' }}>
      {mobile ? null : (
        <Layout.Sider collapsible collapsed={collapsed} trigger={null} width={220} collapsedWidth={64}>
          <MenuTitle text={collapsed ? '权限' : '角色权限管理系统'} />
          <SideMenu collapsed={collapsed} />
        </Layout.Sider>
      )}
      {mobile && drawerLoaded ? (
        <Suspense fallback={null}>
          <MenuDrawer open={drawerOpen} onClose={() => setDrawerOpen(false)}>
            {/* a full-height Sider: the drawer wears the desktop side menu's colours, from the theme */}
            <Layout.Sider width="100%" style={{ minHeight: '100%' }} data-testid="menu-drawer">
              <MenuTitle text="角色权限管理系统" />
              <SideMenu onNavigate={() => setDrawerOpen(false)} />
            </Layout.Sider>
          </MenuDrawer>
        </Suspense>
      ) : null}
      <Layout style={{ minWidth: 0 }}>
        <Layout.Header
          style={{
            background: colors.colorBgContainer,
            padding: mobile ? '4px 8px' : '0 16px',
            display: 'flex',
            flexWrap: 'wrap',
            alignItems: 'center',
            justifyContent: 'space-between',
            columnGap: 8,
            // a phone's header may take a second line (a long name) rather than squeeze its buttons
            ...(mobile ? { height: 'auto', minHeight: 56, lineHeight: 'normal' } : {}),
            borderBottom: `1px solid ${colors.colorBorderSecondary}`,
          }}
        >
          {mobile ? (
            <Button
              type="text"
              aria-label="打开菜单"
              data-testid="menu-button"
              icon={<MenuOutlined />}
              onClick={() => {
                setDrawerLoaded(true)
                setDrawerOpen(true)
              }}
            />
          ) : (
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
          )}
          {/* On a narrow window the actions keep their icons (and names for screen readers) only. */}
          <Space size={mobile ? 'small' : 'middle'} wrap style={{ minWidth: 0 }}>
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
            {user.manageScope ? (
              // DESIGN.md §13: a scoped administrator sees how far their user screens reach
              <span
                data-testid="manage-scope"
                style={{
                  color: colors.colorTextSecondary,
                  wordBreak: 'break-word',
                  lineHeight: colors.lineHeight,
                }}
              >
                管理范围：{scopeLineText(user.manageScope.roots, user.manageScope.self)}
              </span>
            ) : null}
            <AppearanceSwitch compact={mobile} />
            <Suspense fallback={null}>
              <HeaderAccessLinks compact={mobile} />
            </Suspense>
            <HeaderButton
              icon={<IdcardOutlined />}
              label="个人中心"
              compact={mobile}
              onClick={() => void navigate('/personal')}
            />
            <HeaderButton
              icon={<KeyOutlined />}
              label="修改密码"
              compact={mobile}
              onClick={() => setChangingPassword(true)}
            />
            <SignOutButton compact={mobile} />
          </Space>
        </Layout.Header>
        {/* minWidth 0: a wide table scrolls inside its screen instead of widening the page */}
        <Layout.Content style={{ padding: mobile ? 8 : 16, minWidth: 0 }}>
          {user.passwordIsInitial && (
            <InitialPasswordBanner mobile={mobile} onChange={() => setChangingPassword(true)} />
          )}
          <Breadcrumbs />
          <PageGuard />
        </Layout.Content>
        <PasswordDialogLoader open={changingPassword} onClose={() => setChangingPassword(false)} />
      </Layout>
    </Layout>
  )
}

/** The product's name above the menu (its short form over the folded menu). */
function MenuTitle({ text }: { text: string }) {
  return (
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
      {text}
    </div>
  )
}

/**
 * The initial-password warning. On a phone the button goes under the sentence: beside it, the
 * sentence would be squeezed to a character per line.
 */
function InitialPasswordBanner({ mobile, onChange }: { mobile: boolean; onChange: () => void }) {
  const button = (
    <Button size="small" type="primary" onClick={onChange}>
      立即修改
    </Button>
  )
  return (
    <Alert
      type="warning"
      showIcon
      title={INITIAL_PASSWORD_WARNING}
      description={mobile ? button : undefined}
      action={mobile ? undefined : button}
      style={{ marginBottom: mobile ? 8 : 16 }}
      data-testid="initial-password-banner"
    />
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
    <HeaderButton
      icon={<LogoutOutlined />}
      label="退出登录"
      compact={compact}
      onClick={() => void signOut()}
    />
  )
}
