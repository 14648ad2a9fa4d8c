import { describe, expect, it } from 'vitest'
import {
  DEFAULT_SECURITY_SETTINGS as D,
  MSG,
  passwordPolicyProblem,
  passwordPolicyText,
  POLICY_MSG,
  securitySettingsProblem,
} from '../src'

describe('password policy (DESIGN.md §14)', () => {
  it("refuses a password breaking SPEC.md §5's rule with SPEC.md's text while the policy is SPEC.md's", () => {
    for (const weak of ['Ab1!', 'Ab1!Ab1!Ab1!Ab1!Ab1!Ab1!Ab1!Ab1!', 'Ab1!Ab1!Ab1!汉字', 'abcdefgh1234'])
      expect(passwordPolicyProblem(weak, D), weak).toBe(MSG.passwordPolicy)
    expect(passwordPolicyProblem('Zhangsan@2024', D, 'zhangsan')).toBe('密码不能包含用户名')
    expect(passwordPolicyProblem('Zhangsan@2024', D, 'lisi')).toBeNull()
    // a stored setting below the rule counts as the rule
    expect(passwordPolicyProblem('Ab1!Ab1!', { ...D, minLength: 4, minClasses: 1 })).toBe(MSG.passwordPolicy)
  })

  it('names each rule of a tightened policy with its own numbers, in exact Chinese', () => {
    const longer = { ...D, minLength: 16 }
    expect(passwordPolicyProblem('Ab1!', longer)).toBe('密码长度不能少于 16 位')
    expect(passwordPolicyProblem('Abcdefgh@123', longer)).toBe('密码长度不能少于 16 位')
    expect(passwordPolicyProblem('Ab1!Ab1!Ab1!Ab1!Ab1!Ab1!Ab1!Ab1!', longer)).toBe('密码长度不能超过 30 位')
    expect(passwordPolicyProblem('Ab1!Ab1!Ab1!Ab1!汉字', longer)).toBe('密码不能包含汉字')
    expect(passwordPolicyProblem('abcdefgh12345678', longer)).toBe(
      '密码需包含大写字母、小写字母、数字、特殊符号中的至少 3 类',
    )
    const strict = { ...D, minLength: 16, minClasses: 4 }
    expect(passwordPolicyProblem('Abcdefgh@12345', strict)).toBe(POLICY_MSG.tooShort(16))
    expect(passwordPolicyProblem('Abcdefgh123456789', strict)).toBe(POLICY_MSG.classes(4))
    expect(passwordPolicyProblem('Abcdefgh@123456789', strict)).toBeNull()
    expect(passwordPolicyProblem('Abcdefgh12345', { ...D, minClasses: 4 })).toBe(POLICY_MSG.classes(4))
    expect(passwordPolicyProblem('Zhangsan@2024', { ...D, notUsername: false }, 'zhangsan')).toBeNull()
  })

  it('says the rule in the hint with the numbers the check uses', () => {
    expect(passwordPolicyText({ ...D, historyCount: 0, notUsername: false })).toBe(
      '12 到 30 位，大写字母、小写字母、数字、特殊符号四类中至少包含 3 类，不含汉字',
    )
    expect(passwordPolicyText({ ...D, minLength: 16, minClasses: 4 })).toBe(
      '16 到 30 位，大写字母、小写字母、数字、特殊符号四类中至少包含 4 类，不含汉字，不含用户名，不能与最近 5 次使用过的密码相同',
    )
  })

  it('bounds every setting', () => {
    expect(securitySettingsProblem(D)).toBeNull()
    expect(securitySettingsProblem({ ...D, minLength: 8 })).toBe('最短长度应为 12 到 30 之间的整数')
    expect(securitySettingsProblem({ ...D, minClasses: 2 })).toBe('字符类别数应为 3 到 4 之间的整数')
    expect(securitySettingsProblem({ ...D, historyCount: -1 })).toBe('历史密码个数应为 0 到 24 之间的整数')
    expect(securitySettingsProblem({ ...D, expireDays: 1.5 })).toBe('有效天数应为 0 到 3650 之间的整数')
    expect(securitySettingsProblem({ ...D, mfa: 'some' as never })).toBe(
      '两步验证范围应为 off、admins 或 all',
    )
  })
})
