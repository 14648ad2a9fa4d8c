import { describe, expect, it } from 'vitest'
import type { AuthzEffectiveResult, AuthzGrant } from '@amg/contract'
import { ALL_POWER, chainSteps, chainText, heldTree, viaLabel, viaLabelNamingRole } from './format'

describe('viaLabel', () => {
  it('names a direct link 直接 and the others by kind and name', () => {
    expect(viaLabel({ kind: 'direct', id: 3, name: '客服' })).toBe('直接')
    expect(viaLabel({ kind: 'group', id: 4, name: '客服组' })).toBe('用户组 客服组')
    expect(viaLabel({ kind: 'position', id: 5, name: '总公司-客服部-组长' })).toBe('岗位 总公司-客服部-组长')
  })

  it('names the role of a direct link where no column does (who-can)', () => {
    expect(viaLabelNamingRole({ kind: 'direct', id: 3, name: '客服' })).toBe('直接：客服')
    expect(viaLabelNamingRole({ kind: 'group', id: 4, name: '客服组' })).toBe('用户组 客服组')
  })
})

describe('chainSteps', () => {
  const grant: AuthzGrant = {
    via: { kind: 'group', id: 4, name: '客服组' },
    role: { id: 3, roleName: '客服', type: 3 },
    node: { code: 'user', chName: '用户管理' },
    pattern: { method: 'POST', uri: '/user/list' },
  }

  it('lists source, role, node and pattern', () => {
    expect(chainSteps(grant)).toEqual({
      source: '用户组 客服组',
      role: '客服',
      node: '用户管理（user）',
      pattern: 'POST /user/list',
    })
    expect(chainText(grant)).toBe('用户组 客服组 → 客服 → 用户管理（user） → POST /user/list')
  })

  it('shows a super-admin grant (no node) as all power', () => {
    const superGrant: AuthzGrant = {
      via: { kind: 'direct', id: 1, name: '超级管理员' },
      role: { id: 1, roleName: '超级管理员', type: 1 },
      node: null,
      pattern: { method: '*', uri: '/**' },
    }
    expect(chainSteps(superGrant)).toMatchObject({ node: ALL_POWER, pattern: '* /**' })
  })
})

describe('heldTree', () => {
  const tree = [
    {
      code: 'access',
      chName: '权限管理',
      children: [
        { code: 'user', chName: '用户管理', children: [{ code: 'user:add', chName: '新建用户' }] },
        { code: 'role', chName: '角色管理', children: [] },
      ],
    },
    { code: 'monitor', chName: '系统监控', children: [{ code: 'operlog', chName: '操作日志' }] },
  ]
  const effective = (nodes: AuthzEffectiveResult['nodes']): AuthzEffectiveResult => ({
    superAdmin: false,
    roles: [
      { id: 7, roleName: '客服', type: 3, via: [] },
      { id: 8, roleName: '审计', type: 3, via: [] },
    ],
    nodes,
  })

  it('keeps only held nodes, in the tree order, with the roles holding each', () => {
    const result = heldTree(
      tree,
      effective([
        { code: 'access', chName: '权限管理', roleIds: [7] },
        { code: 'user', chName: '用户管理', roleIds: [7, 8] },
      ]),
    )
    expect(result).toEqual([
      {
        code: 'access',
        chName: '权限管理',
        held: true,
        roleNames: ['客服'],
        children: [{ code: 'user', chName: '用户管理', held: true, roleNames: ['客服', '审计'] }],
      },
    ])
  })

  it('keeps an unheld ancestor, marked, so a held node stays in place', () => {
    const result = heldTree(tree, effective([{ code: 'operlog', chName: '操作日志', roleIds: [8] }]))
    expect(result).toEqual([
      {
        code: 'monitor',
        chName: '系统监控',
        held: false,
        roleNames: [],
        children: [{ code: 'operlog', chName: '操作日志', held: true, roleNames: ['审计'] }],
      },
    ])
  })

  it('lists held nodes at the root when the tree is not available', () => {
    const result = heldTree([], effective([{ code: 'user', chName: '用户管理', roleIds: [7] }]))
    expect(result).toEqual([{ code: 'user', chName: '用户管理', held: true, roleNames: ['客服'] }])
  })
})
