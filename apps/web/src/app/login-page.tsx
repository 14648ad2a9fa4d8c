import { LockOutlined, UserOutlined } from '@ant-design/icons'
import { Button, theme } from 'antd'
// the two inputs on their own: antd's Input also carries TextArea, Search and OTP (DESIGN.md §12)
import Input from 'antd/es/input/Input'
import Password from 'antd/es/input/Password'
import { useEffect, useState } from 'react'
import { Navigate, useLocation, useNavigate } from 'react-router'
import { usePageTitle } from '../lib/page-title'
import { returnPath } from '../lib/return-path'
import { preloadHttp, useSession } from '../lib/session-store'
import { AppearanceSwitch } from './appearance-switch'
import { whenIdle } from './lazy-screen'
import { LightForm, LightFormItem } from './light-form'
import { LoginSecondStep } from './login-second-step'
import { Title } from './title'

interface LoginForm {
  nickName: string
  password: string
}
type Field = keyof LoginForm

/** The fields' rules: a name that is not only blanks, and a password. */
const RULES: Record<Field, { valid: (value: string | undefined) => boolean; message: string }> = {
  nickName: { valid: (value) => !!value?.trim(), message: '请输入用户昵称' },
  password: { valid: (value) => !!value, message: '请输入密码' },
}
const errorOf = (field: Field, value: string | undefined) =>
  RULES[field].valid(value) ? undefined : RULES[field].message

/** The sign-in page at '/'. A wrong name or password shows the server's message as a toast. */
export function LoginPage() {
  const token = useSession((s) => s.token)
  const login = useSession((s) => s.login)
  const loginMfa = useSession((s) => s.loginMfa)
  // the second step's token, once the password was right and the account has two-step sign-in
  const [mfaToken, setMfaToken] = useState<string | null>(null)
  const loadCurrentUser = useSession((s) => s.loadCurrentUser)
  const navigate = useNavigate()
  // the page a deep link or an ended session asked for (the welcome page otherwise)
  const next = returnPath(useLocation().state)
  usePageTitle('登录')
  const [busy, setBusy] = useState(false)
  const [values, setValues] = useState<Partial<LoginForm>>({})
  // as antd's Form: a field is checked as it changes, and every field when the form is sent
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({})
  const { token: colors } = theme.useToken()
  // the HTTP client is loaded while the user types, so that signing in does not wait for it
  useEffect(() => whenIdle(preloadHttp), [])

  if (token && !busy) return <Navigate to={next} replace />

  const change = (field: Field, value: string) => {
    setValues((v) => ({ ...v, [field]: value }))
    setErrors((e) => ({ ...e, [field]: errorOf(field, value) }))
  }

  const send = () => {
    const found = {
      nickName: errorOf('nickName', values.nickName),
      password: errorOf('password', values.password),
    }
    if (!found.nickName && !found.password) void submit(values as LoginForm)
    setErrors(found)
  }

  const submit = async (values: LoginForm) => {
    // The call starts before any state changes here: it goes out before React renders the button's
    // spinner, not after.
    const signingIn = login(values.nickName.trim(), values.password)
    setBusy(true)
    try {
      const { mfaToken } = await signingIn
      if (mfaToken) {
        setMfaToken(mfaToken)
        setBusy(false)
        return
      }
      await loadCurrentUser()
      // The page stays busy while it is left: were it not, the signed-in redirect above would navigate
      // a second time and the signed-in frame would be rendered twice.
      navigate(next, { replace: true })
    } catch {
      // the HTTP layer already showed the message
      setBusy(false)
    }
  }

  const submitSecond = async (proof: { code?: string; recoveryCode?: string }) => {
    setBusy(true)
    try {
      await loginMfa(mfaToken!, proof)
      await loadCurrentUser()
      navigate(next, { replace: true })
    } catch {
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
        <Title level={3} style={{ textAlign: 'center', marginBottom: 24 }}>
          角色权限管理系统
        </Title>
        {mfaToken ? (
          <LoginSecondStep
            busy={busy}
            onSubmit={(proof) => void submitSecond(proof)}
            onBack={() => setMfaToken(null)}
          />
        ) : (
          <LightForm id="login" size="large" onSubmit={send}>
            <LightFormItem fieldId="login_nickName" error={errors.nickName}>
              <Input
                id="login_nickName"
                size="large"
                prefix={<UserOutlined />}
                placeholder="用户昵称"
                autoFocus
                value={values.nickName}
                onChange={(e) => change('nickName', e.target.value)}
                status={errors.nickName ? 'error' : undefined}
                aria-required="true"
                aria-invalid={errors.nickName ? 'true' : undefined}
                aria-describedby={errors.nickName ? 'login_nickName_help' : undefined}
              />
            </LightFormItem>
            <LightFormItem fieldId="login_password" error={errors.password}>
              <Password
                id="login_password"
                size="large"
                prefix={<LockOutlined />}
                placeholder="密码"
                value={values.password}
                onChange={(e) => change('password', e.target.value)}
                status={errors.password ? 'error' : undefined}
                aria-required="true"
                aria-invalid={errors.password ? 'true' : undefined}
                aria-describedby={errors.password ? 'login_password_help' : undefined}
              />
            </LightFormItem>
            <LightFormItem style={{ marginBottom: 0 }}>
              <Button type="primary" htmlType="submit" size="large" block loading={busy}>
                登录
              </Button>
            </LightFormItem>
          </LightForm>
        )}
      </div>
    </div>
  )
}
