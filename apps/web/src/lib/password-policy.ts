import { useQuery } from '@tanstack/react-query'
import {
  DEFAULT_SECURITY_SETTINGS,
  passwordPolicyOf,
  passwordPolicyProblem,
  passwordPolicyText,
  routes,
  type PasswordPolicy,
} from '@amg/contract'
import type { FormRule } from 'antd'
import { request } from './route-call'

/**
 * The live password policy (DESIGN.md §14) in the console's password forms: its rules shown under the
 * field and checked with the contract function the server runs, so a refused password is named
 * before anything is sent. Read from GET /settings/password-policy, open to every signed-in user.
 */

export const PASSWORD_POLICY_KEY = ['password-policy'] as const

/** The policy as the server has it; the defaults while it loads (the server checks again anyway). */
export function usePasswordPolicy(): PasswordPolicy {
  const policy = useQuery({
    queryKey: PASSWORD_POLICY_KEY,
    queryFn: () => request(routes.settings.getPasswordPolicy, {}),
  })
  return policy.data ?? passwordPolicyOf(DEFAULT_SECURITY_SETTINGS)
}

/** The hint under a new-password field. */
export const policyHint = (policy: PasswordPolicy) => passwordPolicyText(policy)

/**
 * An antd rule: the policy's first broken rule as the field's message. `userName` is read when the
 * rule runs (a new user's name is typed in the same form).
 */
export const policyRule =
  (
    policy: PasswordPolicy,
    userName: (values: Record<string, unknown>) => string | null | undefined,
  ): FormRule =>
  ({ getFieldsValue }) => ({
    async validator(_rule, value) {
      if (value === undefined || value === null || value === '') return
      // the server's own check: SPEC.md §5's refusal at its numbers, a tightened rule named as set
      const problem = passwordPolicyProblem(String(value), policy, userName(getFieldsValue(true)))
      if (problem) throw new Error(problem)
    },
  })
