import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { findUnsafeInput, unsafeInputMessage } from '../src'

describe('findUnsafeInput (DESIGN.md §11)', () => {
  it('lets ordinary input pass', () => {
    expect(findUnsafeInput(undefined)).toBeNull()
    expect(findUnsafeInput({})).toBeNull()
    expect(
      findUnsafeInput({ nickName: '张三\t第一行\n第二行', age: 30, tags: ['a', 1, null, true] }),
    ).toBeNull()
    expect(findUnsafeInput({ id: 2147483647, low: -2147483648, ratio: 0.5 })).toBeNull()
  })

  it('names the field of the first unsafe value', () => {
    expect(findUnsafeInput({ nickName: 'a\u0000b' })).toEqual({
      field: 'nickName',
      problem: '不能包含控制字符',
    })
    expect(findUnsafeInput({ list: [{ uri: '/ok' }, { uri: '/x\u001f' }] })).toEqual({
      field: 'list.1.uri',
      problem: '不能包含控制字符',
    })
    expect(findUnsafeInput({ pageSize: Infinity })).toEqual({ field: 'pageSize', problem: '不是有效的数字' })
    expect(findUnsafeInput({ a: { id: 2147483648 } })).toEqual({ field: 'a.id', problem: '数值超出范围' })
    expect(findUnsafeInput({ ['bad\u0007key']: 1 })).toEqual({
      field: 'bad\u0007key',
      problem: '不能包含控制字符',
    })
    expect(findUnsafeInput('\u007f')).toEqual({ field: '请求参数', problem: '不能包含控制字符' })
    expect(findUnsafeInput(NaN, 'query')).toEqual({ field: 'query', problem: '不是有效的数字' })
    expect(unsafeInputMessage({ field: 'a.id', problem: '数值超出范围' })).toBe(
      '参数 a.id 不正确：数值超出范围',
    )
  })

  it('refuses nesting deeper than any form', () => {
    let deep: unknown = 'leaf'
    for (let i = 0; i < 40; i++) deep = { d: deep }
    expect(findUnsafeInput(deep)?.problem).toBe('嵌套层次过深')
  })

  it('finds one unsafe value put anywhere in safe input, by its path', () => {
    const allowed = (code: number) =>
      code === 9 || code === 10 || code === 13 || (code >= 0x20 && code !== 0x7f)
    const safeText = fc.string().filter((s) => [...s].every((c) => allowed(c.charCodeAt(0))))
    const safeLeaf = fc.oneof(safeText, fc.integer(), fc.boolean(), fc.constant(null))
    const safeValue = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, safeLeaf, tie('array'), tie('object')),
      array: fc.array(tie('value'), { maxLength: 4 }),
      object: fc.dictionary(fc.stringMatching(/^[a-z]{1,6}$/), tie('value'), { maxKeys: 4 }),
    })).value
    const path = fc.array(fc.stringMatching(/^[a-z]{1,6}$/), { minLength: 1, maxLength: 5 })
    fc.assert(
      fc.property(safeValue, path, (value, keys) => {
        expect(findUnsafeInput(value)).toBeNull()
        // put a NUL at `keys` (objects all the way down, replacing whatever was there)
        const root: Record<string, unknown> = {
          ...(value && typeof value === 'object' && !Array.isArray(value) ? value : {}),
        }
        let node = root
        for (const key of keys.slice(0, -1)) node = node[key] = {}
        node[keys[keys.length - 1]] = 'x\u0000'
        expect(findUnsafeInput(root)).toEqual({ field: keys.join('.'), problem: '不能包含控制字符' })
      }),
    )
  })
})
