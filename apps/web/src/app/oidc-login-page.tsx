import { Alert, Button, Space, theme } from 'antd'
import { useEffect, useState, type ReactNode } from 'react'
import { useParams } from 'react-router'
import { AUTH_HEADER } from '@amg/contract'
import { usePageTitle } from '../lib/page-title'
import { readToken } from '../lib/token'
import { LoginSecondStep } from './login-second-step'
import { SignInFields, SignInFrame } from './sign-in-frame'
import {
  browserProblem,
  cancelled,
  PasskeyBrowserError,
  passkeyAssertion,
  passkeysSupported,
} from '../lib/passkey'
import { PASSKEY_BUTTON } from './passkey-sign-in'

/** What each scope lets the application see, as the consent screen says it. */
const SCOPE_LABELS: Record<string, string> = {
  openid: '您的登录身份',
  profile: '您的昵称和姓名',
  roles: '您的角色',
  permissions: '您在该应用中的权限',
  departments: '您所属的部门',
  offline_access: '在您离开后保持登录',
}

interface Details {
  prompt: 'login' | 'consent' | string
  clientId: string
  clientName: string
  scopes: string[]
}

interface Envelope<T> {
  code: number
  msg: string
  data: T
}

/**
 * The single sign-on login and consent screen (DESIGN.md §16) at /oidc-login/:uid, in the console's
 * look. Its calls go to /oidc-login/:uid/…, where the browser sends the provider's interaction cookie
 * (scoped to this path): only the browser that started the sign-on can finish it. A console session
 * in this browser skips the password.
 */
export function OidcLoginPage() {
  const { uid = '' } = useParams()
  usePageTitle('登录')
  const { token: colors } = theme.useToken()
  const [details, setDetails] = useState<Details | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [nickName, setNickName] = useState('')
  const [password, setPassword] = useState('')
  // the second step's token, once the password was right and the account has two-step sign-in
  const [mfaToken, setMfaToken] = useState<string | null>(null)
  // the second steps offered (DESIGN.md §23)
  const [methods, setMethods] = useState<string[]>(['totp'])

  const call = async <T,>(
    method: string,
    step: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) => {
    const res = await fetch(`/oidc-login/${encodeURIComponent(uid)}/${step}`, {
      method,
      credentials: 'same-origin',
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const answer = (await res.json().catch(() => ({ msg: '服务暂时不可用，请稍后重试' }))) as Envelope<T>
    return { ok: res.ok, answer }
  }

  const go = (answer: Envelope<{ redirectTo: string }>) => window.location.assign(answer.data.redirectTo)

  useEffect(() => {
    let live = true
    void (async () => {
      const { ok, answer } = await call<Details>('GET', 'details')
      if (!live) return
      if (!ok) return setError(answer.msg)
      // signed in to the console already: no password asked
      const token = readToken()
      if (answer.data.prompt === 'login' && token) {
        const skip = await call<{ redirectTo: string }>('POST', 'session', {}, { [AUTH_HEADER]: token })
        if (skip.ok) return go(skip.answer)
      }
      if (live) setDetails(answer.data)
    })()
    return () => {
      live = false
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [uid])

  const send = async (step: string, body: unknown) => {
    setBusy(true)
    const { ok, answer } = await call<{
      redirectTo?: string
      mfaRequired?: boolean
      mfaToken?: string
      methods?: string[]
    }>('POST', step, body)
    if (ok && answer.data.mfaToken) {
      // a right password of an account with two-step sign-in (DESIGN.md §14): the code comes next
      setBusy(false)
      setError(null)
      setMethods(answer.data.methods?.length ? answer.data.methods : ['totp'])
      return setMfaToken(answer.data.mfaToken)
    }
    if (ok) return go(answer as Envelope<{ redirectTo: string }>)
    setBusy(false)
    setError(answer.msg)
  }

  // a passkey, alone or as the second step (DESIGN.md §23), checked on this interaction's path
  const withPasskey = async (token?: string) => {
    setBusy(true)
    try {
      const body = await passkeyAssertion({ mfaToken: token })
      await send('passkey', { ...body, ...(token ? { mfaToken: token } : {}) })
    } catch (err) {
      setBusy(false)
      if (err instanceof PasskeyBrowserError && !cancelled(err.cause)) setError(browserProblem(err.cause))
    }
  }
  const passkeyButton = (token?: string) =>
    passkeysSupported() ? (
      <Button size="large" block loading={busy} onClick={() => void withPasskey(token)}>
        {PASSKEY_BUTTON}
      </Button>
    ) : null

  let content: ReactNode = null
  if (!details) content = error ? <Alert type="error" showIcon title={error} /> : null
  else if (details.prompt === 'login' && mfaToken)
    content = (
      <>
        <p style={{ textAlign: 'center', color: colors.colorTextSecondary }}>
          两步验证 · 登录以继续使用「{details.clientName}」
        </p>
        {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 16 }} />}
        <LoginSecondStep
          busy={busy}
          onSubmit={(proof) => void send('mfa', { mfaToken, ...proof })}
          totp={methods.includes('totp')}
          passkey={methods.includes('passkey') ? passkeyButton(mfaToken) : null}
          onBack={() => {
            // a spent or expired token: the password again gives a new one
            setMfaToken(null)
            setPassword('')
            setError(null)
          }}
        />
      </>
    )
  else if (details.prompt === 'login')
    content = (
      <>
        <p style={{ textAlign: 'center', color: colors.colorTextSecondary }}>
          登录以继续使用「{details.clientName}」
        </p>
        {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 16 }} />}
        <SignInFields
          formId="oidc-login"
          fieldPrefix="oidc"
          values={{ nickName, password }}
          onChange={(field, value) => (field === 'nickName' ? setNickName : setPassword)(value)}
          busy={busy}
          onSubmit={() => {
            if (!nickName.trim()) return setError('请输入用户昵称')
            if (!password) return setError('请输入密码')
            void send('login', { nickName: nickName.trim(), password })
          }}
        />
        <div style={{ marginTop: 16 }}>{passkeyButton()}</div>
      </>
    )
  else
    content = (
      <>
        <p>「{details.clientName}」请求访问：</p>
        <ul data-testid="oidc-scopes">
          {details.scopes.map((s) => (
            <li key={s}>{SCOPE_LABELS[s] ?? s}</li>
          ))}
        </ul>
        {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 16 }} />}
        <Space style={{ width: '100%', justifyContent: 'flex-end' }}>
          <Button disabled={busy} onClick={() => void send('abort', {})}>
            拒绝
          </Button>
          <Button type="primary" loading={busy} onClick={() => void send('consent', {})}>
            授权
          </Button>
        </Space>
      </>
    )

  return (
    <SignInFrame
      testId="oidc-card"
      title={details?.prompt === 'consent' ? '授权确认' : '角色权限管理系统'}
      titleGap={16}
    >
      {content}
    </SignInFrame>
  )
}
