import type { FormRule } from 'antd'
import { isRequired, validateValue, type Rule, type RuleTrigger } from './rules'
import { rules as presets, type RuleSetName } from './presets'

/**
 * Adapts rules to an antd Form.Item `rules` array: one antd rule that runs ours in order and
 * rejects with the first failing message (so antd shows exactly that message below the field).
 * `required` is carried over so antd draws the asterisk.
 */
export function toAntdRules(rules: readonly Rule[], field = ''): FormRule[] {
  const triggers = new Set<RuleTrigger>()
  for (const rule of rules) {
    const list = rule.trigger ? (Array.isArray(rule.trigger) ? rule.trigger : [rule.trigger]) : []
    list.forEach((t) => triggers.add(t))
  }
  const validateTrigger =
    triggers.size && rules.every((r) => r.trigger)
      ? [...triggers].map((t) => (t === 'blur' ? 'onBlur' : 'onChange'))
      : undefined
  return [
    ({ getFieldsValue }) => ({
      required: isRequired(rules),
      ...(validateTrigger ? { validateTrigger } : {}),
      async validator(_rule, value) {
        const message = await validateValue(value, rules, {
          field,
          values: getFieldsValue(true) as Record<string, unknown>,
        })
        if (message !== null) throw new Error(message)
      },
    }),
  ]
}

/** antd `rules` for one of the ready rule sets (e.g. antdRules.roleName). */
export const antdRules = Object.fromEntries(
  Object.entries(presets).map(([name, list]) => [name, toAntdRules(list)]),
) as Record<RuleSetName, FormRule[]>
