import { Form, Input } from 'antd'
import { DialogForm } from '../../components/dialog-form'
import { toastSuccess } from '../../lib/feedback'
import { useSession } from '../../lib/session-store'
import { policyHint, policyRule, usePasswordPolicy } from '../../lib/password-policy'
import { changeOwnPassword } from './api'
import { useFormLayout } from '../../lib/ui/form-layout'

export const PASSWORD_CHANGED = '密码修改成功'
export const OLD_PASSWORD_REQUIRED = '请输入原密码'
export const NEW_PASSWORD_REQUIRED = '请输入新密码'
export const CONFIRM_PASSWORD_REQUIRED = '请再次输入新密码'
export const PASSWORDS_DIFFER = '两次输入的新密码不一致'
export const FORCED_CHANGE_NOTE = '当前密码由他人设置或已过期，修改密码后才能继续使用系统。'

interface PasswordValues {
  oldPassword: string
  newPassword: string
  confirmPassword: string
}

/**
 * Changes the signed-in user's own password (PUT /api/user/password). The new password is checked
 * against the live policy (DESIGN.md §14) before it is sent; the history only the server can check.
 * On success the current user is reloaded, so the initial-password warning goes. `forced`: the
 * session may do nothing else (a password set by someone else, or expired), so the dialog cannot be
 * dismissed.
 */
export function ChangePasswordDialog({
  open,
  onClose,
  forced = false,
}: {
  open: boolean
  onClose: () => void
  forced?: boolean
}) {
  const layout = useFormLayout(100)
  const loadCurrentUser = useSession((s) => s.loadCurrentUser)
  const nickName = useSession((s) => s.user?.nickName)
  const policy = usePasswordPolicy()
  return (
    <DialogForm<PasswordValues>
      what="修改密码"
      save={async (values) => {
        await changeOwnPassword(values.oldPassword, values.newPassword)
        toastSuccess(PASSWORD_CHANGED)
        onClose()
        await loadCurrentUser()
      }}
      title={forced ? '请先修改密码' : '修改密码'}
      open={open}
      onClose={forced ? undefined : onClose}
      closable={!forced}
      keyboard={!forced}
      cancelButtonProps={forced ? { style: { display: 'none' } } : undefined}
      intro={forced ? <p>{FORCED_CHANGE_NOTE}</p> : null}
      fields={layout}
    >
      <Form.Item
        label="原密码"
        name="oldPassword"
        rules={[{ required: true, message: OLD_PASSWORD_REQUIRED }]}
      >
        <Input.Password autoComplete="current-password" placeholder="请输入原密码" />
      </Form.Item>
      <Form.Item
        label="新密码"
        name="newPassword"
        extra={policyHint(policy)}
        rules={[{ required: true, message: NEW_PASSWORD_REQUIRED }, policyRule(policy, () => nickName)]}
      >
        <Input.Password autoComplete="new-password" placeholder="请输入新密码" />
      </Form.Item>
      <Form.Item
        label="确认新密码"
        name="confirmPassword"
        dependencies={['newPassword']}
        rules={[
          { required: true, message: CONFIRM_PASSWORD_REQUIRED },
          ({ getFieldValue }) => ({
            validator: async (_rule, value) => {
              if (value && value !== getFieldValue('newPassword')) throw new Error(PASSWORDS_DIFFER)
            },
          }),
        ]}
      >
        <Input.Password autoComplete="new-password" placeholder="请再次输入新密码" />
      </Form.Item>
    </DialogForm>
  )
}
