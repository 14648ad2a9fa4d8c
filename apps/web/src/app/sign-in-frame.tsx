import { LockOutlined, UserOutlined } from '@ant-design/icons'
import { Button, theme } from 'antd'
// the two inputs on their own: antd's Input also carries TextArea, Search and OTP (DESIGN.md §12)
import Input from 'antd/es/input/Input'
import Password from 'antd/es/input/Password'
import type { ReactNode } from 'react'
import { LightForm, LightFormItem } from './light-form'
import { Title } from './title'

/**
 * The page both sign-in screens stand on (the console's and the single sign-on one): a background
 * in the theme's own colours, so that the dark theme is dark here too, and a card with the title.
 * A plain panel in the card's colours: antd's Card would bring its tabs and skeleton into the first
 * download (DESIGN.md §12).
 */
export function SignInFrame({
  testId,
  title,
  titleGap,
  corner,
  children,
}: {
  testId: string
  title: ReactNode
  /** the space under the title */
  titleGap: number
  /** what stands in the page's top right corner */
  corner?: ReactNode
  children: ReactNode
}) {
  const { token: colors } = theme.useToken()
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
        background: `linear-gradient(135deg, ${colors.colorPrimaryBg} 0%, ${colors.colorBgLayout} 100%)`,
      }}
    >
      {corner ? <div style={{ position: 'absolute', top: 12, right: 16 }}>{corner}</div> : null}
      <div
        data-testid={testId}
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
        <Title level={3} style={{ textAlign: 'center', marginBottom: titleGap }}>
          {title}
        </Title>
        {children}
      </div>
    </div>
  )
}

export interface SignInValues {
  nickName?: string
  password?: string
}
export type SignInField = keyof SignInValues

/**
 * The name and password fields and 登录, as both sign-in screens ask for them. `errors`, where given,
 * are shown under each field (the console's page checks each field as it changes); the single
 * sign-on page tells its one problem above the form instead.
 */
export function SignInFields({
  formId,
  fieldPrefix,
  values,
  onChange,
  errors,
  busy,
  onSubmit,
  passkeyAutofill,
}: {
  formId: string
  /** the inputs' ids are `<prefix>_nickName` and `<prefix>_password` */
  fieldPrefix: string
  values: SignInValues
  onChange: (field: SignInField, value: string) => void
  errors?: Partial<Record<SignInField, string>>
  busy: boolean
  onSubmit: () => void
  /** the name box offers passkeys (conditional UI) */
  passkeyAutofill?: boolean
}) {
  const field = (name: SignInField) => {
    const id = `${fieldPrefix}_${name}`
    const error = errors?.[name]
    return {
      id,
      size: 'large' as const,
      value: values[name],
      onChange: (e: { target: { value: string } }) => onChange(name, e.target.value),
      ...(errors
        ? {
            status: error ? ('error' as const) : undefined,
            'aria-required': 'true' as const,
            'aria-invalid': error ? ('true' as const) : undefined,
            'aria-describedby': error ? `${id}_help` : undefined,
          }
        : {}),
    }
  }
  return (
    <LightForm id={formId} size="large" onSubmit={onSubmit}>
      <LightFormItem fieldId={`${fieldPrefix}_nickName`} error={errors?.nickName}>
        {/* "webauthn": the browser offers passkeys among the name's suggestions (DESIGN.md §23) */}
        <Input
          prefix={<UserOutlined />}
          placeholder="用户昵称"
          autoFocus
          autoComplete={passkeyAutofill ? 'username webauthn' : 'username'}
          {...field('nickName')}
        />
      </LightFormItem>
      <LightFormItem fieldId={`${fieldPrefix}_password`} error={errors?.password}>
        <Password prefix={<LockOutlined />} placeholder="密码" {...field('password')} />
      </LightFormItem>
      <LightFormItem style={{ marginBottom: 0 }}>
        <Button type="primary" htmlType="submit" size="large" block loading={busy}>
          登录
        </Button>
      </LightFormItem>
    </LightForm>
  )
}
