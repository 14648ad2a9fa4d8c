import { useEffect, useState } from 'react'
import { Navigate, useLocation, useNavigate } from 'react-router'
import { usePageTitle } from '../lib/page-title'
import { returnPath } from '../lib/return-path'
import { preloadHttp, useSession } from '../lib/session-store'
import { AppearanceSwitch } from './appearance-switch'
import { whenIdle } from './lazy-screen'
import { LoginSecondStep } from './login-second-step'
import { PasskeyButton, usePasskeyAutofill } from './passkey-sign-in'
import { SignInFields, SignInFrame, type SignInField, type SignInValues } from './sign-in-frame'

type LoginForm = Required<SignInValues>
type Field = SignInField

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
  // the second steps offered (DESIGN.md §23: a passkey where TOTP is asked, or only a passkey)
  const [methods, setMethods] = useState<('totp' | 'passkey')[]>(['totp'])
  const loadCurrentUser = useSession((s) => s.loadCurrentUser)
  const navigate = useNavigate()
  // the page a deep link or an ended session asked for (the welcome page otherwise)
  const next = returnPath(useLocation().state)
  usePageTitle('登录')
  const [busy, setBusy] = useState(false)
  const [values, setValues] = useState<SignInValues>({})
  // as antd's Form: a field is checked as it changes, and every field when the form is sent
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({})
  // the HTTP client is loaded while the user types, so that signing in does not wait for it
  useEffect(() => whenIdle(preloadHttp), [])
  // a passkey picked among the name box's suggestions signs in (conditional UI)
  const passkeySignedIn = async () => {
    setBusy(true)
    try {
      await loadCurrentUser()
      navigate(next, { replace: true })
    } catch {
      setBusy(false)
    }
  }
  usePasskeyAutofill(!token, () => void passkeySignedIn())

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
      const { mfaToken, methods } = await signingIn
      if (mfaToken) {
        setMethods(methods?.length ? methods : ['totp'])
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
    <SignInFrame testId="login-card" title="角色权限管理系统" titleGap={24} corner={<AppearanceSwitch />}>
      {mfaToken ? (
        <LoginSecondStep
          busy={busy}
          onSubmit={(proof) => void submitSecond(proof)}
          onBack={() => setMfaToken(null)}
          totp={methods.includes('totp')}
          passkey={
            methods.includes('passkey') ? (
              <PasskeyButton
                mfaToken={mfaToken}
                busy={busy}
                primary={!methods.includes('totp')}
                onStart={() => setBusy(true)}
                onSignedIn={() => void passkeySignedIn()}
                onFailed={() => setBusy(false)}
              />
            ) : null
          }
        />
      ) : (
        <>
          <SignInFields
            formId="login"
            fieldPrefix="login"
            values={values}
            onChange={change}
            errors={errors}
            busy={busy}
            onSubmit={send}
            passkeyAutofill
          />
          <div style={{ marginTop: 16 }}>
            <PasskeyButton
              busy={false}
              onStart={() => setBusy(true)}
              onSignedIn={() => void passkeySignedIn()}
              onFailed={() => setBusy(false)}
            />
          </div>
        </>
      )}
    </SignInFrame>
  )
}
