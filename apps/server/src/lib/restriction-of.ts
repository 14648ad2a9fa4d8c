import type { Restriction } from '@amg/contract'

const RESTRICTIONS: readonly string[] = [
  'password_change',
  'mfa_enroll',
  'passkey_enroll',
] satisfies Restriction[]

/**
 * A session's `restricted` value as stored or carried by a sign-in step, as the restriction it names
 * (DESIGN.md §14); none, or a value no restriction has, is no restriction (null).
 */
export const restrictionOf = (value: string | null | undefined): Restriction | null =>
  value && RESTRICTIONS.includes(value) ? (value as Restriction) : null
