import { afterEach, describe, expect, it, vi } from 'vitest'
import { FLAG_NAMES, ValidationObserver, createFlags } from './observer'

const settle = () => new Promise((r) => setTimeout(r, 0))

afterEach(() => vi.restoreAllMocks())

describe('ValidationObserver: field flags (SPEC.md §4)', () => {
  it('starts untouched and pristine, with required from the rules and a silent valid/invalid', async () => {
    const o = new ValidationObserver()
    o.register('name', { rules: [{ required: true }] })
    o.register('note', { rules: [{ max: 3 }] })
    await settle()
    expect(o.field('name')!.flags).toEqual({ ...createFlags(true), valid: false, invalid: true })
    expect(o.field('note')!.flags).toEqual({ ...createFlags(false), valid: true, invalid: false })
    expect(o.field('name')!.error).toBe('') // silent: no message yet
    expect(FLAG_NAMES).toHaveLength(12)
  })

  it('setValue makes the field dirty and changed (changed only when differing from the initial value)', async () => {
    const o = new ValidationObserver()
    o.register('name', { initialValue: 'a' })
    o.setValue('name', 'b')
    let f = o.field('name')!.flags
    expect([f.dirty, f.pristine, f.changed]).toEqual([true, false, true])
    o.setValue('name', 'a')
    f = o.field('name')!.flags
    expect([f.dirty, f.pristine, f.changed]).toEqual([true, false, false])
  })

  it('touch makes the field touched and validates it (message, validated, passed/failed)', async () => {
    const o = new ValidationObserver()
    o.register('name', { rules: [{ required: true }], label: '名称' })
    const valid = await o.touch('name')
    expect(valid).toBe(false)
    const s = o.field('name')!
    expect(s.error).toBe('名称 is required')
    expect(s.flags).toMatchObject({
      touched: true,
      untouched: false,
      validated: true,
      failed: true,
      passed: false,
      invalid: true,
      valid: false,
      pending: false,
    })
    // after validation a change re-validates
    await o.setValue('name', 'x')
    expect(o.field('name')!.error).toBe('')
    expect(o.field('name')!.flags).toMatchObject({ valid: true, passed: true, failed: false })
  })

  it('pending while an asynchronous rule runs', async () => {
    let resolve!: (v: string | null) => void
    const o = new ValidationObserver()
    o.register('code', {
      rules: [{ validator: () => new Promise<string | null>((r) => (resolve = r)) }],
      initialValue: 'x',
    })
    await settle()
    resolve(null)
    await settle()
    const running = o.validateField('code')
    expect(o.field('code')!.flags.pending).toBe(true)
    expect(o.flags.pending).toBe(true)
    resolve('已存在')
    expect(await running).toBe(false)
    expect(o.field('code')!.flags.pending).toBe(false)
    expect(o.field('code')!.error).toBe('已存在')
  })

  it('aggregates the flags over the form (every/some)', async () => {
    const o = new ValidationObserver()
    o.register('a', { rules: [{ required: true }] })
    o.register('b')
    await settle()
    expect(o.flags).toMatchObject({
      untouched: true,
      touched: false,
      pristine: true,
      dirty: false,
      required: true,
      valid: false,
      invalid: true,
      validated: false,
    })
    o.setValue('b', 'x')
    await o.touch('b')
    expect(o.flags).toMatchObject({
      untouched: false,
      touched: true,
      pristine: false,
      dirty: true,
      changed: true,
      validated: false,
      failed: false,
    })
    o.setValue('a', 'y')
    await o.validate()
    expect(o.flags).toMatchObject({
      valid: true,
      invalid: false,
      validated: true,
      passed: true,
      failed: false,
    })
  })

  it('form-wide validation runs every enabled field and skips disabled ones', async () => {
    const o = new ValidationObserver()
    o.register('a', { rules: [{ required: true, message: 'A 必填' }] })
    o.register('b', { rules: [{ required: true, message: 'B 必填' }], disabled: true })
    expect(await o.validate()).toBe(false)
    expect(o.errors).toEqual({ a: 'A 必填' })
    o.setValue('a', 1)
    expect(await o.validate()).toBe(true)
    o.setDisabled('b', false)
    expect(await o.validate()).toBe(false)
    expect(o.errors).toEqual({ b: 'B 必填' })
  })

  it('submit runs the callback only when all are valid; an invalid form is only logged', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const o = new ValidationObserver()
    o.register('a', { rules: [{ required: true }] })
    const callback = vi.fn(() => 'sent')
    expect(await o.submit(callback)).toBeUndefined()
    expect(callback).not.toHaveBeenCalled()
    expect(warn).toHaveBeenCalledTimes(1)
    o.setValue('a', 'v')
    expect(await o.submit(callback)).toBe('sent')
    expect(callback).toHaveBeenCalledWith({ a: 'v' })
  })

  it('subscribe notifies on change; reset restores values and flags', async () => {
    const o = new ValidationObserver()
    const listener = vi.fn()
    const off = o.subscribe(listener)
    o.register('a', { initialValue: 'x', rules: [{ required: true }] })
    expect(listener).toHaveBeenCalled()
    o.setValue('a', '')
    await o.validate()
    expect(o.errors.a).toBe('a is required')
    o.reset()
    expect(o.values).toEqual({ a: 'x' })
    expect(o.errors).toEqual({})
    expect(o.field('a')!.flags).toMatchObject({ dirty: false, pristine: true, validated: false })
    const before = listener.mock.calls.length
    off()
    o.setValue('a', 'z')
    expect(listener.mock.calls.length).toBe(before)
    o.unregister('a')
    expect(o.has('a')).toBe(false)
  })

  it('custom validators receive all form values', async () => {
    const o = new ValidationObserver()
    o.register('password', { initialValue: 'abc' })
    o.register('confirm', {
      initialValue: 'abd',
      rules: [{ validator: (v, values) => (v === values.password ? null : '两次输入不一致') }],
    })
    expect(await o.validateField('confirm')).toBe(false)
    expect(o.errors.confirm).toBe('两次输入不一致')
  })
})
