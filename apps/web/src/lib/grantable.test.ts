import { describe, expect, it } from 'vitest'
import { BEYOND_POWER_PREFIX } from '@amg/contract'
import { denyReasonOf, offeredRoles } from './grantable'

const roles = [
  { id: 1, roleName: '超级管理员', type: 1 },
  { id: 2, roleName: '内置', type: 2 },
  { id: 3, roleName: '普通', type: 3 },
]

describe('offeredRoles', () => {
  it('leaves the super-admin role (type 1) out for a caller who is not a super admin', () => {
    expect(offeredRoles(roles, false).map((r) => r.id)).toEqual([2, 3])
  })
  it('offers every role to a super admin', () => {
    expect(offeredRoles(roles, true).map((r) => r.id)).toEqual([1, 2, 3])
  })
})

describe('denyReasonOf', () => {
  it("is the server's reason when the candidate is not grantable", () => {
    expect(denyReasonOf({ grantable: false, denyReason: `${BEYOND_POWER_PREFIX}部门管理` })).toBe(
      `${BEYOND_POWER_PREFIX}部门管理`,
    )
  })
  it('falls back to the refusal prefix when the reason is missing', () => {
    expect(denyReasonOf({ grantable: false, denyReason: null })).toBe(BEYOND_POWER_PREFIX)
  })
  it('is null for grantable and unmarked candidates', () => {
    expect(denyReasonOf({ grantable: true, denyReason: null })).toBeNull()
    expect(denyReasonOf({ id: 1 })).toBeNull()
  })
})
