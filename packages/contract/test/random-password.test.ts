import { describe, expect, it } from 'vitest'
import {
  DEFAULT_SECURITY_SETTINGS,
  PASSWORD_MAX,
  RESET_PASSWORD_LENGTH,
  passwordPolicyProblem,
  randomPassword,
} from '../src'

describe('randomPassword (重置密码)', () => {
  const strict = { minLength: 24, minClasses: 4, notUsername: true }

  it('passes the default policy, at the reset length', () => {
    for (let i = 0; i < 300; i++) {
      const p = randomPassword(DEFAULT_SECURITY_SETTINGS, 'zhangsan')
      expect(p).toHaveLength(RESET_PASSWORD_LENGTH)
      expect(passwordPolicyProblem(p, DEFAULT_SECURITY_SETTINGS, 'zhangsan'), p).toBeNull()
    }
  })

  it('follows a strict policy: its length, all four classes, never the name even a one-letter one', () => {
    for (const name of ['a', 'A', '2', 'ab', 'x!', 'Zhang']) {
      for (let i = 0; i < 200; i++) {
        const p = randomPassword(strict, name)
        expect(p).toHaveLength(24)
        expect(passwordPolicyProblem(p, strict, name), `${name}: ${p}`).toBeNull()
        expect(p.toLowerCase()).not.toContain(name.toLowerCase())
      }
    }
  })

  it('stays within the longest password allowed', () => {
    const longest = { ...strict, minLength: PASSWORD_MAX }
    const p = randomPassword(longest, 'admin')
    expect(p).toHaveLength(PASSWORD_MAX)
    expect(passwordPolicyProblem(p, longest, 'admin')).toBeNull()
  })

  it('differs each time', () => {
    const seen = new Set(Array.from({ length: 200 }, () => randomPassword(DEFAULT_SECURITY_SETTINGS)))
    expect(seen.size).toBe(200)
  })
})
