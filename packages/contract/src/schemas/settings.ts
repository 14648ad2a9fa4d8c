import { Type, type Static } from '@sinclair/typebox'
import { POLICY_MSG } from '../messages'
import { MFA_MODES, SECURITY_LIMITS, type MfaMode } from '../password-policy'
import { withMessage } from './common'

/** The security settings (DESIGN.md §14): one row, read and replaced whole. */

const Bounded = (key: keyof typeof SECURITY_LIMITS, label: string) => {
  const { min, max } = SECURITY_LIMITS[key]
  return withMessage(Type.Integer({ minimum: min, maximum: max }), POLICY_MSG.outOfRange(label, min, max))
}

export const SecuritySettingsBody = Type.Object({
  minLength: Bounded('minLength', '最短长度'),
  minClasses: Bounded('minClasses', '字符类别数'),
  notUsername: withMessage(Type.Boolean(), '请选择是否禁止包含用户名'),
  historyCount: Bounded('historyCount', '历史密码个数'),
  expireDays: Bounded('expireDays', '有效天数'),
  forceChangeInitial: withMessage(Type.Boolean(), '请选择是否强制修改初始密码'),
  // one enum rather than a union of literals, so that the refusal carries this message
  mfa: withMessage(Type.Unsafe<MfaMode>(Type.String({ enum: [...MFA_MODES] })), POLICY_MSG.mfaInvalid),
})
export type SecuritySettingsBody = Static<typeof SecuritySettingsBody>

/** The rules a new password must pass, as every signed-in user may read them (GET /settings/password-policy). */
export const PasswordPolicyData = Type.Object({
  minLength: Type.Integer(),
  minClasses: Type.Integer(),
  notUsername: Type.Boolean(),
  historyCount: Type.Integer(),
})
export type PasswordPolicyData = Static<typeof PasswordPolicyData>
