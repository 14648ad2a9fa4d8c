import { describe, expect, it } from 'vitest'
import { checkPassword, isValidPassword } from '@amg/contract'
import { RESET_PASSWORD_LENGTH, randomPassword } from './random-password'

describe('randomPassword', () => {
  it('always satisfies the contract password rule', () => {
    for (let i = 0; i < 500; i++) {
      const password = randomPassword()
      expect(password).toHaveLength(RESET_PASSWORD_LENGTH)
      expect(isValidPassword(password), password).toBe(true)
      expect(checkPassword(password)).toBeNull()
    }
  })

  it('differs each time', () => {
    const seen = new Set(Array.from({ length: 200 }, () => randomPassword()))
    expect(seen.size).toBe(200)
  })
})
