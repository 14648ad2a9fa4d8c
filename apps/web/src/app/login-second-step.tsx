import { SafetyOutlined } from '@ant-design/icons'
import { Button } from 'antd'
import Input from 'antd/es/input/Input'
import { useState, type ReactNode } from 'react'
import { LightForm, LightFormItem } from './light-form'

export const SECOND_STEP_CODE_REQUIRED = '请输入 6 位验证码'
export const SECOND_STEP_RECOVERY_REQUIRED = '请输入恢复码'

/**
 * The sign-in page's second step (DESIGN.md §14): the 6-digit code of the authenticator app, or one
 * of the recovery codes. The token of the first step lasts 5 minutes and 5 tries; when it is spent the
 * server says so and 返回 starts again.
 */
export function LoginSecondStep({
  busy,
  onSubmit,
  onBack,
  totp = true,
  passkey,
}: {
  busy: boolean
  onSubmit: (proof: { code?: string; recoveryCode?: string }) => void
  onBack: () => void
  /** false when only a passkey will do (DESIGN.md §23: mfa admins-passkey) */
  totp?: boolean
  /** 使用通行密钥, where the user has one */
  passkey?: ReactNode
}) {
  const [recovery, setRecovery] = useState(false)
  const [value, setValue] = useState('')
  const [error, setError] = useState<string>()

  const send = () => {
    const text = value.trim()
    if (recovery ? text === '' : !/^\d{6}$/.test(text.replace(/\s+/g, ''))) {
      setError(recovery ? SECOND_STEP_RECOVERY_REQUIRED : SECOND_STEP_CODE_REQUIRED)
      return
    }
    onSubmit(recovery ? { recoveryCode: text } : { code: text.replace(/\s+/g, '') })
  }

  if (!totp)
    return (
      <div id="login-mfa">
        <p style={{ marginTop: 0 }}>请使用您的通行密钥完成验证。</p>
        {passkey}
        <div style={{ textAlign: 'right', marginTop: 8 }}>
          <Button type="link" style={{ padding: 0 }} onClick={onBack}>
            返回
          </Button>
        </div>
      </div>
    )
  return (
    <LightForm id="login-mfa" size="large" onSubmit={send}>
      <p style={{ marginTop: 0 }}>
        {recovery ? '请输入一个未使用过的恢复码。' : '请打开身份验证器应用，输入显示的 6 位验证码。'}
      </p>
      <LightFormItem fieldId="login_mfa_code" error={error}>
        <Input
          id="login_mfa_code"
          size="large"
          prefix={<SafetyOutlined />}
          placeholder={recovery ? '恢复码' : '6 位验证码'}
          autoFocus
          autoComplete="one-time-code"
          inputMode={recovery ? 'text' : 'numeric'}
          value={value}
          onChange={(e) => {
            setValue(e.target.value)
            setError(undefined)
          }}
          status={error ? 'error' : undefined}
          aria-label={recovery ? '恢复码' : '验证码'}
        />
      </LightFormItem>
      <LightFormItem>
        <Button type="primary" htmlType="submit" size="large" block loading={busy}>
          验证
        </Button>
      </LightFormItem>
      {passkey ? <div style={{ marginBottom: 16 }}>{passkey}</div> : null}
      <div style={{ display: 'flex', justifyContent: 'space-between' }}>
        <Button
          type="link"
          style={{ padding: 0 }}
          onClick={() => {
            setRecovery(!recovery)
            setValue('')
            setError(undefined)
          }}
        >
          {recovery ? '使用验证码' : '使用恢复码'}
        </Button>
        <Button type="link" style={{ padding: 0 }} onClick={onBack}>
          返回
        </Button>
      </div>
    </LightForm>
  )
}
