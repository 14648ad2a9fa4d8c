import { isRequired, validateValue, type Rule, type RuleTrigger } from './rules'

/** The field flags of SPEC.md §4. */
export interface FieldFlags {
  untouched: boolean
  touched: boolean
  dirty: boolean
  pristine: boolean
  valid: boolean
  invalid: boolean
  validated: boolean
  pending: boolean
  required: boolean
  changed: boolean
  passed: boolean
  failed: boolean
}

export const FLAG_NAMES = [
  'untouched',
  'touched',
  'dirty',
  'pristine',
  'valid',
  'invalid',
  'validated',
  'pending',
  'required',
  'changed',
  'passed',
  'failed',
] as const satisfies readonly (keyof FieldFlags)[]

/** How the form-level observer combines its fields' flags. */
const STRATEGY: Record<keyof FieldFlags, 'every' | 'some'> = {
  untouched: 'every',
  touched: 'some',
  dirty: 'some',
  pristine: 'every',
  valid: 'every',
  invalid: 'some',
  validated: 'every',
  pending: 'some',
  required: 'some',
  changed: 'some',
  passed: 'every',
  failed: 'some',
}

export function createFlags(required = false): FieldFlags {
  return {
    untouched: true,
    touched: false,
    dirty: false,
    pristine: true,
    valid: false,
    invalid: false,
    validated: false,
    pending: false,
    required,
    changed: false,
    passed: false,
    failed: false,
  }
}

export interface FieldOptions {
  rules?: Rule[]
  /** The name used for `{field}` in messages (defaults to the field name). */
  label?: string
  initialValue?: unknown
  /** A disabled field is skipped by form-wide validation. */
  disabled?: boolean
}

export interface FieldState {
  name: string
  label: string
  rules: Rule[]
  value: unknown
  initialValue: unknown
  disabled: boolean
  /** The first failing rule's message, shown below the field; '' when none is shown. */
  error: string
  flags: FieldFlags
}

export interface ObserverSnapshot {
  fields: Record<string, FieldState>
  flags: FieldFlags
  errors: Record<string, string>
  values: Record<string, unknown>
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)

/**
 * The form-level validation observer: holds each field's value, rules, message and flags, and
 * aggregates the flags over the form. Listeners registered with subscribe() run after each change.
 */
export class ValidationObserver {
  private fields = new Map<string, FieldState>()
  private listeners = new Set<() => void>()
  private snapshot: ObserverSnapshot | null = null
  private runs = new Map<string, number>()

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  getSnapshot = (): ObserverSnapshot => {
    if (!this.snapshot) {
      const fields: Record<string, FieldState> = {}
      const errors: Record<string, string> = {}
      const values: Record<string, unknown> = {}
      for (const [name, state] of this.fields) {
        fields[name] = state
        values[name] = state.value
        if (state.error) errors[name] = state.error
      }
      this.snapshot = { fields, errors, values, flags: this.flags }
    }
    return this.snapshot
  }

  private emit() {
    this.snapshot = null
    for (const listener of [...this.listeners]) listener()
  }

  private update(name: string, patch: Partial<FieldState>, flags?: Partial<FieldFlags>) {
    const state = this.fields.get(name)
    if (!state) return
    this.fields.set(name, { ...state, ...patch, flags: { ...state.flags, ...flags } })
    this.emit()
  }

  /** Adds (or updates the options of) a field; runs a silent validation to seed valid/invalid. */
  register(name: string, options: FieldOptions = {}): void {
    const existing = this.fields.get(name)
    const rules = options.rules ?? existing?.rules ?? []
    if (existing) {
      this.update(
        name,
        {
          rules,
          label: options.label ?? existing.label,
          disabled: options.disabled ?? existing.disabled,
        },
        { required: isRequired(rules) },
      )
    } else {
      this.fields.set(name, {
        name,
        label: options.label ?? name,
        rules,
        value: options.initialValue,
        initialValue: options.initialValue,
        disabled: options.disabled ?? false,
        error: '',
        flags: createFlags(isRequired(rules)),
      })
      this.emit()
    }
    void this.validateField(name, { silent: true })
  }

  /** Replaces a field's rules quietly (notifies only when the required flag changes). */
  setRules(name: string, rules: Rule[]): void {
    const state = this.fields.get(name)
    if (!state || state.rules === rules) return
    const required = isRequired(rules)
    if (required !== state.flags.required) this.update(name, { rules }, { required })
    else this.fields.set(name, { ...state, rules })
  }

  unregister(name: string): void {
    if (this.fields.delete(name)) this.emit()
  }

  has(name: string): boolean {
    return this.fields.has(name)
  }

  field(name: string): FieldState | undefined {
    return this.fields.get(name)
  }

  get values(): Record<string, unknown> {
    return Object.fromEntries([...this.fields].map(([name, state]) => [name, state.value]))
  }

  get errors(): Record<string, string> {
    return Object.fromEntries([...this.fields].filter(([, s]) => s.error).map(([name, s]) => [name, s.error]))
  }

  /** The form-level flags: every/some over the fields' flags. */
  get flags(): FieldFlags {
    const states = [...this.fields.values()]
    const result = createFlags()
    for (const flag of FLAG_NAMES) {
      result[flag] =
        STRATEGY[flag] === 'every' ? states.every((s) => s.flags[flag]) : states.some((s) => s.flags[flag])
    }
    return result
  }

  setDisabled(name: string, disabled: boolean): void {
    this.update(name, { disabled })
  }

  /** A user edit: the field becomes dirty; it is re-validated when it was validated before. */
  setValue(name: string, value: unknown): Promise<boolean> | void {
    const state = this.fields.get(name)
    if (!state) return
    this.update(name, { value }, { dirty: true, pristine: false, changed: !same(value, state.initialValue) })
    if (state.flags.validated) return this.validateField(name, { trigger: 'change' })
    void this.validateField(name, { silent: true })
  }

  /** Leaving the field: it becomes touched and is validated (rules checked on blur). */
  touch(name: string): Promise<boolean> | void {
    if (!this.fields.has(name)) return
    this.update(name, {}, { touched: true, untouched: false })
    return this.validateField(name, { trigger: 'blur' })
  }

  /**
   * Validates one field. A silent run sets valid/invalid only; otherwise the message is shown and
   * validated/passed/failed are set. Answers whether the field is valid.
   */
  async validateField(
    name: string,
    options: { silent?: boolean; trigger?: RuleTrigger } = {},
  ): Promise<boolean> {
    const state = this.fields.get(name)
    if (!state) return true
    const run = (this.runs.get(name) ?? 0) + 1
    this.runs.set(name, run)
    if (!options.silent) this.update(name, {}, { pending: true })
    const error = await validateValue(state.value, state.rules, {
      field: state.label,
      values: this.values,
      trigger: options.trigger,
    })
    if (this.runs.get(name) !== run || !this.fields.has(name)) return error === null
    const valid = error === null
    if (options.silent) {
      this.update(name, {}, { valid, invalid: !valid, pending: false })
    } else {
      this.update(
        name,
        { error: error ?? '' },
        { valid, invalid: !valid, validated: true, pending: false, passed: valid, failed: !valid },
      )
    }
    return valid
  }

  /** Form-wide validation of every enabled (not disabled) field. */
  async validate(): Promise<boolean> {
    const names = [...this.fields.values()].filter((s) => !s.disabled).map((s) => s.name)
    const results = await Promise.all(names.map((name) => this.validateField(name)))
    return results.every(Boolean)
  }

  /** Runs the callback only when every enabled field is valid; an invalid form is only logged. */
  async submit<T>(callback: (values: Record<string, unknown>) => T | Promise<T>): Promise<T | undefined> {
    if (!(await this.validate())) {
      console.warn('表单校验未通过', this.errors)
      return undefined
    }
    return callback(this.values)
  }

  /** Back to the initial values with fresh flags and no messages. */
  reset(values?: Record<string, unknown>): void {
    for (const [name, state] of this.fields) {
      const initialValue = values && name in values ? values[name] : state.initialValue
      this.runs.set(name, (this.runs.get(name) ?? 0) + 1)
      this.fields.set(name, {
        ...state,
        value: initialValue,
        initialValue,
        error: '',
        flags: createFlags(isRequired(state.rules)),
      })
    }
    this.emit()
    for (const name of this.fields.keys()) void this.validateField(name, { silent: true })
  }
}
