import { MSG, POLICY_MSG } from './messages'
import { PASSWORD_MAX, PASSWORD_MIN } from './rules'

/**
 * The sign-in security settings (DESIGN.md §14) and the password policy they set. Kept free of the
 * schema library so the console checks its forms with the same function the server runs.
 */
// 'admins-passkey' (DESIGN.md §23): administrators must sign in with a passkey
export type MfaMode = 'off' | 'admins' | 'all' | 'admins-passkey'
export const MFA_MODES: readonly MfaMode[] = ['off', 'admins', 'all', 'admins-passkey']

export interface SecuritySettings {
  /** never below SPEC.md §5's 12 */
  minLength: number
  /** of upper case, lower case, digits, special characters; never below SPEC.md §5's 3 */
  minClasses: number
  notUsername: boolean
  /** how many earlier passwords may not come back (0: none) */
  historyCount: number
  /** days a password lasts (0: for ever) */
  expireDays: number
  /** a password set by someone else must be changed at the next sign-in */
  forceChangeInitial: boolean
  mfa: MfaMode
}

export const DEFAULT_SECURITY_SETTINGS: SecuritySettings = {
  minLength: 12,
  minClasses: 3,
  notUsername: true,
  historyCount: 5,
  expireDays: 0,
  forceChangeInitial: true,
  mfa: 'off',
}

/** The part of the settings that judges a new password: what GET /settings/password-policy answers. */
export type PasswordPolicy = Pick<
  SecuritySettings,
  'minLength' | 'minClasses' | 'notUsername' | 'historyCount'
>

export const passwordPolicyOf = (s: SecuritySettings): PasswordPolicy => ({
  minLength: s.minLength,
  minClasses: s.minClasses,
  notUsername: s.notUsername,
  historyCount: s.historyCount,
})

/** The policy in one sentence, for the hint under a password field (the same numbers the check uses). */
export function passwordPolicyText(policy: PasswordPolicy): string {
  const minLength = Math.max(PASSWORD_MIN, policy.minLength)
  const minClasses = Math.max(3, policy.minClasses)
  const parts = [
    `${minLength} 到 ${PASSWORD_MAX} 位`,
    `大写字母、小写字母、数字、特殊符号四类中至少包含 ${minClasses} 类`,
    '不含汉字',
  ]
  if (policy.notUsername) parts.push('不含用户名')
  if (policy.historyCount > 0) parts.push(`不能与最近 ${policy.historyCount} 次使用过的密码相同`)
  return parts.join('，')
}

/** The bounds of each setting (the settings form and the server's check). */
export const SECURITY_LIMITS = {
  minLength: { min: PASSWORD_MIN, max: PASSWORD_MAX },
  minClasses: { min: 3, max: 4 },
  historyCount: { min: 0, max: 24 },
  expireDays: { min: 0, max: 3650 },
} as const

const CHINESE = /[\u4e00-\u9fff\u3400-\u4dbf]/
const CLASSES = [/[A-Z]/, /[a-z]/, /\d/, /[^A-Za-z0-9_\u4e00-\u9fff\u3400-\u4dbf]/]

/**
 * The message of the first rule `password` breaks, or null. The policy never goes below SPEC.md
 * §5's rule whatever the settings say (a stored setting below it counts as the rule's own value).
 * At SPEC.md's own numbers a password breaking them gets SPEC.md's refusal word for word; a policy
 * tightened in 安全设置 names its own numbers instead (SPEC.md's text says 12 位, which would mislead).
 */
export function passwordPolicyProblem(
  password: string,
  settings: Pick<SecuritySettings, 'minLength' | 'minClasses' | 'notUsername'>,
  userName?: string | null,
): string | null {
  const minLength = Math.max(PASSWORD_MIN, settings.minLength)
  const minClasses = Math.max(3, settings.minClasses)
  const broken = ruleBroken(password, minLength, minClasses)
  if (broken) return minLength === PASSWORD_MIN && minClasses === 3 ? MSG.passwordPolicy : broken
  const name = userName?.trim().toLowerCase()
  if (settings.notUsername && name && password.toLowerCase().includes(name))
    return POLICY_MSG.containsUsername
  return null
}

/** The first of length, Chinese characters and classes `password` breaks, named with the policy's numbers. */
function ruleBroken(password: string, minLength: number, minClasses: number): string | null {
  if (password.length < minLength) return POLICY_MSG.tooShort(minLength)
  if (password.length > PASSWORD_MAX) return POLICY_MSG.tooLong
  if (CHINESE.test(password)) return POLICY_MSG.chinese
  if (CLASSES.filter((re) => re.test(password)).length < minClasses) return POLICY_MSG.classes(minClasses)
  return null
}

/** The message of the first setting out of its bounds, or null. */
export function securitySettingsProblem(s: SecuritySettings): string | null {
  const labels: Record<keyof typeof SECURITY_LIMITS, string> = {
    minLength: '最短长度',
    minClasses: '字符类别数',
    historyCount: '历史密码个数',
    expireDays: '有效天数',
  }
  for (const key of Object.keys(SECURITY_LIMITS) as (keyof typeof SECURITY_LIMITS)[]) {
    const { min, max } = SECURITY_LIMITS[key]
    const v = s[key]
    if (!Number.isInteger(v) || v < min || v > max) return POLICY_MSG.outOfRange(labels[key], min, max)
  }
  if (!MFA_MODES.includes(s.mfa)) return POLICY_MSG.mfaInvalid
  return null
}
