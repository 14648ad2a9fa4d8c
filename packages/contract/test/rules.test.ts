import { describe, expect, it } from 'vitest'
import {
  checkMobile,
  normalizeMobile,
  checkOrgName,
  checkPassword,
  isBlank,
  isValidPassword,
  joinFrontEndAccess,
  parseIdList,
  splitFrontEndAccess,
} from '../src/rules'
import { MSG } from '../src/messages'

describe('password policy (SPEC.md §5)', () => {
  it('accepts 12–30 characters with three of four classes', () => {
    expect(isValidPassword('Admin@123456')).toBe(true) // upper, lower, special, digits
    expect(isValidPassword('abcdefgh1234')).toBe(false) // two classes
    expect(isValidPassword('abcdefgH1234')).toBe(true) // three classes
    expect(isValidPassword('abcdefgh!234')).toBe(true) // lower, special, digits
  })
  it('enforces the length bounds', () => {
    expect(isValidPassword('Ab1!Ab1!Ab1')).toBe(false) // 11
    expect(isValidPassword('Ab1!Ab1!Ab1!')).toBe(true) // 12
    expect(isValidPassword('Ab1!'.repeat(7) + 'Ab')).toBe(true) // 30
    expect(isValidPassword('Ab1!'.repeat(7) + 'Ab1')).toBe(false) // 31
  })
  it('refuses Chinese characters and does not count underscore as special', () => {
    expect(isValidPassword('Admin@123456中')).toBe(false)
    expect(isValidPassword('admin_1234567')).toBe(false) // lower + digits; _ is not special
  })
  it('checkPassword skips an empty optional value and gives the exact message', () => {
    expect(checkPassword('')).toBeNull()
    expect(checkPassword(undefined)).toBeNull()
    expect(checkPassword('weak')).toBe(MSG.passwordPolicy)
  })
})

describe('mobile', () => {
  it('is 11 digits starting with 1, optional', () => {
    expect(checkMobile('13800138000')).toBeNull()
    expect(checkMobile('')).toBeNull()
    expect(checkMobile('23800138000')).toBe(MSG.mobileInvalid)
    expect(checkMobile('1380013800')).toBe(MSG.mobileInvalid)
    expect(checkMobile('138001380001')).toBe(MSG.mobileInvalid)
  })

  it('takes full-width digits as the digits they are (NFKC), and nothing else that looks like one', () => {
    expect(normalizeMobile('１３８００１３８０００')).toBe('13800138000')
    expect(normalizeMobile('　１３８００１３８０００ ')).toBe('13800138000')
    expect(checkMobile('１３８００１３８０００')).toBeNull()
    expect(checkMobile('２３８００１３８０００')).toBe(MSG.mobileInvalid)
    // Arabic-Indic digits are digits of their own, not ASCII ones
    expect(checkMobile('١٣٨٠٠١٣٨٠٠٠')).toBe(MSG.mobileInvalid)
  })
})

describe('department name', () => {
  it('is required and has no hyphen', () => {
    expect(checkOrgName('研发部')).toBeNull()
    expect(checkOrgName('  ')).toBe('请输入部门名称')
    expect(checkOrgName('研发-一部')).toBe("部门名称不能包含'-'")
  })
})

describe('helpers', () => {
  it('isBlank', () => {
    expect(isBlank(' ')).toBe(true)
    expect(isBlank(null)).toBe(true)
    expect(isBlank(0)).toBe(false)
  })
  it('parseIdList reads comma-joined ids, arrays and numbers', () => {
    expect(parseIdList('1,2, 3,2')).toEqual([1, 2, 3])
    expect(parseIdList([4, '5'])).toEqual([4, 5])
    expect(parseIdList(7)).toEqual([7])
    expect(parseIdList('')).toEqual([])
    expect(parseIdList('1,a')).toBeNull()
    expect(parseIdList('0')).toBeNull()
    expect(parseIdList('-1')).toBeNull()
  })
  it('front-end access strings are trimmed and comma-joined', () => {
    expect(joinFrontEndAccess([' /a ', '/b/**', ' '])).toBe('/a,/b/**')
    expect(splitFrontEndAccess(' /a , /b/** ,,')).toEqual(['/a', '/b/**'])
  })
})
