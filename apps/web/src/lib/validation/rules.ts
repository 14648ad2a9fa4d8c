import dayjs from '../dayjs'

/**
 * The form validation rules of SPEC.md §5: rule kinds required, whitespace, type, range/length
 * (min/max/len), enum, pattern, email (under 255 characters), url, hex, date, plus a custom
 * validator (used for the contract's predicates). Rules stop at the first failure, and an empty
 * optional field is skipped.
 */

export type RuleType =
  | 'string'
  | 'number'
  | 'integer'
  | 'float'
  | 'boolean'
  | 'array'
  | 'object'
  | 'enum'
  | 'regexp'
  | 'email'
  | 'url'
  | 'hex'
  | 'date'

export type RuleTrigger = 'blur' | 'change'

/** A custom check: returns the message (or false) on failure, null/undefined/true when valid. */
export type RuleValidator = (
  value: unknown,
  values: Record<string, unknown>,
) => string | null | undefined | boolean | Promise<string | null | undefined | boolean>

export interface Rule {
  required?: boolean
  /** A string of only whitespace fails. */
  whitespace?: boolean
  type?: RuleType
  /** Range for numbers, length for strings and arrays. */
  min?: number
  max?: number
  /** Exact length (strings, arrays) or value (numbers). */
  len?: number
  enum?: readonly unknown[]
  pattern?: RegExp | string
  validator?: RuleValidator
  /** The message shown on failure; `{field}` is replaced by the field's label. */
  message?: string
  /** When the rule runs in a form: on blur, on change, or both (default). */
  trigger?: RuleTrigger | RuleTrigger[]
}

export const DEFAULT_MESSAGES = {
  default: '{field} is not valid.',
  required: '{field} is required',
  whitespace: '{field} cannot be empty',
} as const

/** The email type accepts addresses under 255 characters (SPEC.md §9). */
export const EMAIL_MAX_LENGTH = 255

// The same patterns async-validator (the library behind the original forms) uses.
const EMAIL =
  /^(([^<>()[\]\\.,;:\s@"]+(\.[^<>()[\]\\.,;:\s@"]+)*)|(".+"))@((\[[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}])|(([a-zA-Z\-0-9\u00A0-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF]+\.)+[a-zA-Z\u00A0-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF]{2,}))$/
const URL_PATTERN =
  /^(?:(?:(?:https?|ftp):)?\/\/)(?:\S+(?::\S*)?@)?(?:localhost|(?:(?:[1-9]\d?|1\d\d|2[01]\d|22[0-3])(?:\.(?:1?\d{1,2}|2[0-4]\d|25[0-5])){2}(?:\.(?:[1-9]\d?|1\d\d|2[0-4]\d|25[0-4])))|(?:(?:[a-z\u00a1-\uffff0-9]-*)*[a-z\u00a1-\uffff0-9]+)(?:\.(?:[a-z\u00a1-\uffff0-9]-*)*[a-z\u00a1-\uffff0-9]+)*(?:\.(?:[a-z\u00a1-\uffff]{2,})))(?::\d{2,5})?(?:[/?#][^\s"]*)?$/i
const HEX = /^#?([a-f0-9]{6}|[a-f0-9]{3})$/i

export const isEmptyValue = (value: unknown): boolean =>
  value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0)

export function formatMessage(message: string, field: string): string {
  return message.replace(/\{field\}/g, field)
}

function isValidDate(value: unknown): boolean {
  if (value instanceof Date) return !Number.isNaN(value.getTime())
  if (dayjs.isDayjs(value)) return value.isValid()
  if (typeof value === 'string' || typeof value === 'number') return dayjs(value).isValid()
  return false
}

export function checkType(type: RuleType, value: unknown): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string'
    case 'number':
      return typeof value === 'number' && !Number.isNaN(value)
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value)
    case 'float':
      return typeof value === 'number' && !Number.isNaN(value) && !Number.isInteger(value)
    case 'boolean':
      return typeof value === 'boolean'
    case 'array':
      return Array.isArray(value)
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value)
    case 'enum':
      return true // checked by the enum list
    case 'regexp':
      if (value instanceof RegExp) return true
      try {
        new RegExp(String(value))
        return true
      } catch {
        return false
      }
    case 'email':
      return typeof value === 'string' && value.length < EMAIL_MAX_LENGTH && EMAIL.test(value)
    case 'url':
      return typeof value === 'string' && URL_PATTERN.test(value)
    case 'hex':
      return typeof value === 'string' && HEX.test(value)
    case 'date':
      return isValidDate(value)
  }
}

function measure(value: unknown): number | null {
  if (typeof value === 'number') return value
  if (typeof value === 'string') return Array.from(value).length
  if (Array.isArray(value)) return value.length
  return null
}

/** One rule's first failing check (synchronous part), as the raw message template, or null. */
function checkRuleSync(rule: Rule, value: unknown): string | null {
  const fail = rule.message ?? DEFAULT_MESSAGES.default
  if (isEmptyValue(value)) return rule.required ? (rule.message ?? DEFAULT_MESSAGES.required) : null
  if (rule.whitespace && typeof value === 'string' && value.trim() === '') {
    return rule.message ?? DEFAULT_MESSAGES.whitespace
  }
  if (rule.type && !checkType(rule.type, value)) return fail
  if (rule.len !== undefined || rule.min !== undefined || rule.max !== undefined) {
    const size = measure(value)
    if (size === null) return fail
    if (rule.len !== undefined && size !== rule.len) return fail
    if (rule.min !== undefined && size < rule.min) return fail
    if (rule.max !== undefined && size > rule.max) return fail
  }
  if (rule.enum && !rule.enum.includes(value)) return fail
  if (rule.pattern !== undefined) {
    const re = typeof rule.pattern === 'string' ? new RegExp(rule.pattern) : rule.pattern
    re.lastIndex = 0
    if (!re.test(String(value))) return fail
  }
  return null
}

function validatorMessage(result: unknown, rule: Rule): string | null {
  if (result === null || result === undefined || result === true || result === '') return null
  if (typeof result === 'string') return rule.message ?? result
  return rule.message ?? DEFAULT_MESSAGES.default
}

export interface ValidateOptions {
  /** The name shown in messages for `{field}`. */
  field?: string
  /** All form values, passed to custom validators. */
  values?: Record<string, unknown>
  /** Only rules with this trigger (rules without a trigger always run). */
  trigger?: RuleTrigger
}

export const isRequired = (rules: readonly Rule[] | undefined): boolean => !!rules?.some((r) => r.required)

function matchesTrigger(rule: Rule, trigger: RuleTrigger | undefined): boolean {
  if (!trigger || !rule.trigger) return true
  return Array.isArray(rule.trigger) ? rule.trigger.includes(trigger) : rule.trigger === trigger
}

/**
 * Runs the rules in order and answers the first failing rule's message (with `{field}` filled in),
 * or null when the value passes. An empty value of a field without a required rule is skipped.
 */
export async function validateValue(
  value: unknown,
  rules: readonly Rule[],
  options: ValidateOptions = {},
): Promise<string | null> {
  const steps = checks(value, rules, options)
  let step = steps.next()
  while (!step.done) {
    let result: unknown
    try {
      result = await step.value()
    } catch (error) {
      result = error instanceof Error ? error.message : String(error)
    }
    step = steps.next(result)
  }
  return step.value
}

/** The synchronous variant (custom validators must not return promises). */
export function validateValueSync(
  value: unknown,
  rules: readonly Rule[],
  options: ValidateOptions = {},
): string | null {
  const steps = checks(value, rules, options)
  let step = steps.next()
  while (!step.done) {
    const result = step.value()
    if (result instanceof Promise) throw new Error('validateValueSync: asynchronous validator')
    step = steps.next(result)
  }
  return step.value
}

/**
 * The rules' checks in order, up to the first failure's message (null: all passed). A custom
 * validator is handed out to be called, and its result handed back: the two variants above differ
 * only in how they wait for it.
 */
function* checks(
  value: unknown,
  rules: readonly Rule[],
  options: ValidateOptions,
): Generator<() => unknown, string | null, unknown> {
  const field = options.field ?? 'field'
  const values = options.values ?? {}
  if (isEmptyValue(value) && !isRequired(rules)) return null
  for (const rule of rules) {
    if (!matchesTrigger(rule, options.trigger)) continue
    const failed = checkRuleSync(rule, value)
    if (failed !== null) return formatMessage(failed, field)
    const validator = rule.validator
    if (validator && !(isEmptyValue(value) && !rule.required)) {
      const message = validatorMessage(yield () => validator(value, values), rule)
      if (message !== null) return formatMessage(message, field)
    }
  }
  return null
}
