import { describe, expect, it } from 'vitest'
import { MSG, type PasswordPolicy } from '@amg/contract'
import type { FormInstance, RuleObject } from 'antd/es/form'
import { policyHint, policyRule } from './password-policy'

/** The password rule in the console's forms: the hint and the check say the rule as it is set. */

const SPEC: PasswordPolicy = { minLength: 12, minClasses: 3, notUsername: true, historyCount: 5 }
const LONGER: PasswordPolicy = { ...SPEC, minLength: 16 }

/** The message the form shows for `value`, or null when the rule takes it. */
async function check(policy: PasswordPolicy, value: string, userName: string | null = null) {
  const form = { getFieldsValue: () => ({}) } as unknown as FormInstance
  const rule = policyRule(policy, () => userName)
  const made = (typeof rule === 'function' ? rule(form) : rule) as RuleObject
  try {
    await made.validator!(made, value, () => {})
    return null
  } catch (err) {
    return (err as Error).message
  }
}

describe('the hint under a new-password field', () => {
  it('says the rule plainly: its length, three of the four classes, no Chinese', () => {
    expect(policyHint({ ...SPEC, notUsername: false, historyCount: 0 })).toBe(
      '12 到 30 位，大写字母、小写字母、数字、特殊符号四类中至少包含 3 类，不含汉字',
    )
  })

  it('names a tightened policy as set', () => {
    expect(policyHint(LONGER)).toBe(
      '16 到 30 位，大写字母、小写字母、数字、特殊符号四类中至少包含 3 类，不含汉字，不含用户名，不能与最近 5 次使用过的密码相同',
    )
  })
})

describe('the form’s check', () => {
  it("at SPEC.md's numbers refuses with SPEC.md's text, and takes what passes", async () => {
    expect(await check(SPEC, 'abcdefgh1234')).toBe(MSG.passwordPolicy)
    expect(await check(SPEC, 'Short@1')).toBe(MSG.passwordPolicy)
    expect(await check(SPEC, 'Abcdefgh@123')).toBeNull()
    expect(await check(SPEC, 'Zhangsan@2024', 'zhangsan')).toBe('密码不能包含用户名')
  })

  it('under a 16-character policy tells a 12-character password the length as set, whatever else it breaks', async () => {
    expect(await check(LONGER, 'Abcdefgh@123')).toBe('密码长度不能少于 16 位')
    expect(await check(LONGER, 'abcdefgh1234')).toBe('密码长度不能少于 16 位')
    expect(await check(LONGER, 'Short@1')).toBe('密码长度不能少于 16 位')
    expect(await check(LONGER, 'Abcdefgh@1234567')).toBeNull()
  })
})
