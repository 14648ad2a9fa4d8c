import { describe, expect, it } from 'vitest'
import dayjs from 'dayjs'
import { DEFAULT_MESSAGES, isRequired, validateValue, validateValueSync, type Rule } from './rules'

const v = (value: unknown, rules: Rule[], field = 'name') => validateValue(value, rules, { field })

describe('validation rules (SPEC.md §5)', () => {
  it('default messages', () => {
    expect(DEFAULT_MESSAGES).toEqual({
      default: '{field} is not valid.',
      required: '{field} is required',
      whitespace: '{field} cannot be empty',
    })
  })

  it('required: empty values fail with "{field} is required"', async () => {
    for (const empty of [undefined, null, '', []])
      expect(await v(empty, [{ required: true }])).toBe('name is required')
    expect(await v('x', [{ required: true }])).toBeNull()
    expect(await v(0, [{ required: true }])).toBeNull()
    expect(await v(false, [{ required: true }])).toBeNull()
    expect(await v('', [{ required: true, message: '必须输入角色名称' }])).toBe('必须输入角色名称')
  })

  it('whitespace: only spaces fail with "{field} cannot be empty"', async () => {
    expect(await v('   ', [{ whitespace: true }])).toBe('name cannot be empty')
    expect(await v('   ', [{ required: true, whitespace: true }])).toBe('name cannot be empty')
    expect(await v(' a ', [{ whitespace: true }])).toBeNull()
  })

  it('type: mismatch fails with the default message', async () => {
    expect(await v('1', [{ type: 'number' }])).toBe('name is not valid.')
    expect(await v(1, [{ type: 'number' }])).toBeNull()
    expect(await v(1.5, [{ type: 'integer' }])).toBe('name is not valid.')
    expect(await v(2, [{ type: 'integer' }])).toBeNull()
    expect(await v(2, [{ type: 'float' }])).toBe('name is not valid.')
    expect(await v('x', [{ type: 'boolean' }])).toBe('name is not valid.')
    expect(await v(true, [{ type: 'boolean' }])).toBeNull()
    expect(await v('x', [{ type: 'array' }])).toBe('name is not valid.')
    expect(await v([1], [{ type: 'array' }])).toBeNull()
    expect(await v([1], [{ type: 'object' }])).toBe('name is not valid.')
    expect(await v({}, [{ type: 'object' }])).toBeNull()
    expect(await v(1, [{ type: 'string' }])).toBe('name is not valid.')
    expect(await v('(', [{ type: 'regexp' }])).toBe('name is not valid.')
    expect(await v('a+', [{ type: 'regexp' }])).toBeNull()
  })

  it('range: min/max on numbers, length on strings and arrays, len exact', async () => {
    expect(await v(5, [{ type: 'number', min: 1, max: 10 }])).toBeNull()
    expect(await v(0, [{ type: 'number', min: 1 }])).toBe('name is not valid.')
    expect(await v(11, [{ max: 10 }])).toBe('name is not valid.')
    expect(await v('ab', [{ min: 3 }])).toBe('name is not valid.')
    expect(await v('abcd', [{ max: 3 }])).toBe('name is not valid.')
    expect(await v('中文字', [{ max: 3 }])).toBeNull()
    expect(await v([1, 2], [{ min: 3, message: '至少三项' }])).toBe('至少三项')
    expect(await v('abc', [{ len: 3 }])).toBeNull()
    expect(await v('ab', [{ len: 3 }])).toBe('name is not valid.')
    expect(await v({}, [{ min: 1 }])).toBe('name is not valid.')
  })

  it('enum', async () => {
    expect(await v(1, [{ type: 'enum', enum: [1, 2] }])).toBeNull()
    expect(await v(3, [{ type: 'enum', enum: [1, 2] }])).toBe('name is not valid.')
  })

  it('pattern (RegExp or string)', async () => {
    expect(await v('abc', [{ pattern: /^[a-z]+$/ }])).toBeNull()
    expect(await v('ab1', [{ pattern: /^[a-z]+$/ }])).toBe('name is not valid.')
    expect(await v('123', [{ pattern: '^\\d+$' }])).toBeNull()
    const global = /^a/g
    expect(await v('ab', [{ pattern: global }])).toBeNull()
    expect(await v('ab', [{ pattern: global }])).toBeNull() // lastIndex reset
  })

  it('email: valid address under 255 characters', async () => {
    expect(await v('a@b.cn', [{ type: 'email' }])).toBeNull()
    expect(await v('a@b', [{ type: 'email' }])).toBe('name is not valid.')
    expect(await v('not an email', [{ type: 'email' }])).toBe('name is not valid.')
    const long = `${'a'.repeat(64)}@${'b'.repeat(180)}.com` // 249
    expect(long.length).toBeLessThan(255)
    expect(await v(long, [{ type: 'email' }])).toBeNull()
    const tooLong = `${'a'.repeat(64)}@${'b'.repeat(186)}.com` // 255
    expect(tooLong.length).toBe(255)
    expect(await v(tooLong, [{ type: 'email' }])).toBe('name is not valid.')
  })

  it('url', async () => {
    expect(await v('https://example.com/a?b=1', [{ type: 'url' }])).toBeNull()
    expect(await v('http://localhost:8081', [{ type: 'url' }])).toBeNull()
    expect(await v('example', [{ type: 'url' }])).toBe('name is not valid.')
  })

  it('hex', async () => {
    expect(await v('#fff', [{ type: 'hex' }])).toBeNull()
    expect(await v('A0B1C2', [{ type: 'hex' }])).toBeNull()
    expect(await v('#ggg', [{ type: 'hex' }])).toBe('name is not valid.')
    expect(await v('#ffff', [{ type: 'hex' }])).toBe('name is not valid.')
  })

  it('date', async () => {
    expect(await v(new Date(), [{ type: 'date' }])).toBeNull()
    expect(await v(new Date('x'), [{ type: 'date' }])).toBe('name is not valid.')
    expect(await v('2024-01-31', [{ type: 'date' }])).toBeNull()
    expect(await v(dayjs('2024-01-31'), [{ type: 'date' }])).toBeNull()
    expect(await v('not a date', [{ type: 'date' }])).toBe('name is not valid.')
  })

  it('custom validator: message from the result or the rule', async () => {
    expect(await v('x', [{ validator: () => '不对' }])).toBe('不对')
    expect(await v('x', [{ validator: () => false }])).toBe('name is not valid.')
    expect(await v('x', [{ validator: () => false, message: '自定义' }])).toBe('自定义')
    expect(await v('x', [{ validator: async () => null }])).toBeNull()
    expect(await v('x', [{ validator: () => Promise.reject(new Error('失败')) }])).toBe('失败')
  })

  it('stops at the first failure, showing only that message', async () => {
    let called = false
    const rules: Rule[] = [
      { required: true, message: 'A' },
      { min: 3, message: 'B' },
      { pattern: /^\d+$/, message: 'C' },
      { validator: () => ((called = true), 'D') },
    ]
    expect(await v('', rules)).toBe('A')
    expect(await v('x', rules)).toBe('B')
    expect(await v('xyz', rules)).toBe('C')
    expect(called).toBe(false)
    expect(await v('123', rules)).toBe('D')
  })

  it('skips empty optional fields', async () => {
    let called = false
    const rules: Rule[] = [{ min: 3 }, { type: 'email' }, { validator: () => ((called = true), 'no') }]
    expect(await v('', rules)).toBeNull()
    expect(await v(undefined, rules)).toBeNull()
    expect(called).toBe(false)
  })

  it('fills {field} in custom messages and filters by trigger', async () => {
    expect(await v('', [{ required: true, message: '{field}必填' }], '角色名称')).toBe('角色名称必填')
    const rules: Rule[] = [{ required: true, trigger: 'blur' }]
    expect(await validateValue('', rules, { trigger: 'change' })).toBeNull()
    expect(await validateValue('', rules, { trigger: 'blur', field: 'x' })).toBe('x is required')
  })

  it('isRequired and the synchronous variant', () => {
    expect(isRequired([{ min: 1 }, { required: true }])).toBe(true)
    expect(isRequired([{ min: 1 }])).toBe(false)
    expect(validateValueSync('', [{ required: true }], { field: 'f' })).toBe('f is required')
    expect(validateValueSync('ok', [{ validator: () => null }])).toBeNull()
  })
})
