import { LockOutlined, UserOutlined } from '@ant-design/icons'
import { Button, Form, Input, Typography, theme } from 'antd'
import { useState } from 'react'
import { Navigate, useNavigate } from 'react-router'
import { useSession } from '../lib/session-store'
import { AppearanceSwitch } from './appearance-switch'

interface LoginForm {
  nickName: string
  password: string
}

/** The sign-in page at '/'. A wrong name or password shows the server's message as a toast. */
export function LoginPage() {
  const token = useSession((s) => s.token)
  const login = useSession((s) => s.login)
  const loadCurrentUser = useSession((s) => s.loadCurrentUser)
  const navigate = useNavigate()
  const [busy, setBusy] = useState(false)
  const { token: colors } = theme.useToken()

  if (token && !busy) return <Navigate to="/body" replace />

  const submit = async (values: LoginForm) => {
    setBusy(true)
    try {
      await login(values.nickName.trim(), values.password)
      await loadCurrentUser()
      navigate('/body', { replace: true })
    } catch {
      // the HTTP layer already showed the message
    } finally {
      setBusy(false)
    }
  }

  return (
    <div
      style={{
        minHeight: '100vh',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        padding: 16,
        boxSizing: 'border-box',
        position: 'relative',
        // the theme's own colours, so that the dark theme is dark here too
        background: `linear-gradient(135deg, ${colors.colorPrimaryBg} 0%, ${colors.colorBgLayout} 100%)`,
      }}
    >
      <div style={{ position: 'absolute', top: 12, right: 16 }}>
        <AppearanceSwitch />
      </div>
      {/* A plain panel in the card's colours: antd's Card would bring its tabs and skeleton into the
          first download (DESIGN.md §12). */}
      <div
        data-testid="login-card"
        style={{
          width: 380,
          maxWidth: '100%',
          padding: 24,
          boxSizing: 'border-box',
          background: colors.colorBgContainer,
          border: `1px solid ${colors.colorBorderSecondary}`,
          borderRadius: colors.borderRadiusLG,
        }}
      >
        <Typography.Title level={3} style={{ textAlign: 'center', marginBottom: 24 }}>
          角色权限管理系统
        </Typography.Title>
        <Form<LoginForm> name="login" onFinish={submit} autoComplete="off" size="large">
          <Form.Item name="nickName" rules={[{ required: true, whitespace: true, message: '请输入用户名' }]}>
            <Input prefix={<UserOutlined />} placeholder="用户名" autoFocus />
          </Form.Item>
          <Form.Item name="password" rules={[{ required: true, message: '请输入密码' }]}>
            <Input.Password prefix={<LockOutlined />} placeholder="密码" />
          </Form.Item>
          <Form.Item style={{ marginBottom: 0 }}>
            <Button type="primary" htmlType="submit" block loading={busy}>
              登录
            </Button>
          </Form.Item>
        </Form>
      </div>
    </div>
  )
}
