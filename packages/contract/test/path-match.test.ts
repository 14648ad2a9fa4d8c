import { describe, expect, it } from 'vitest'
import { findInTree, isPathAllowed, matchesPattern, matchesUrlPattern } from '../src/path-match'

describe('matchesPattern (SPEC.md §5)', () => {
  it('a lone /** matches everything', () => {
    expect(matchesPattern('/**', '/usermanage')).toBe(true)
    expect(matchesPattern('/**', '/')).toBe(true)
    expect(matchesPattern('/**', '/a/b/c')).toBe(true)
  })

  it('a pattern ending in /** matches any path starting with the prefix', () => {
    expect(matchesPattern('/usermanage/**', '/usermanage/userinfo')).toBe(true)
    expect(matchesPattern('/usermanage/**', '/usermanage/userinfo/roleformbyuser')).toBe(true)
    expect(matchesPattern('/usermanage/**', '/rolemanage')).toBe(false)
  })

  it('P/** matches P itself and paths under P/, on a segment boundary only', () => {
    expect(matchesPattern('/user/**', '/user')).toBe(true)
    expect(matchesPattern('/user/**', '/user/list')).toBe(true)
    expect(matchesPattern('/user/**', '/user/a/b')).toBe(true)
    expect(matchesPattern('/user/**', '/user_groups/list')).toBe(false)
    expect(matchesPattern('/user/**', '/username')).toBe(false)
    expect(matchesPattern('/user/**', '/use')).toBe(false)
    expect(matchesPattern('/user/**', '/')).toBe(false)
    expect(matchesPattern('/user/**', '/users/list')).toBe(false)
  })

  it('otherwise the match must be exact', () => {
    expect(matchesPattern('/usermanage', '/usermanage')).toBe(true)
    expect(matchesPattern('/usermanage', '/usermanage/adduser')).toBe(false)
    expect(matchesPattern('/usermanage', '/usermanag')).toBe(false)
    expect(matchesPattern('/user/*', '/user/list')).toBe(false)
  })

  it('ignores surrounding white space in the pattern', () => {
    expect(matchesPattern(' /usermanage ', '/usermanage')).toBe(true)
  })
})

describe('isPathAllowed', () => {
  it('allows a path when any pattern matches', () => {
    expect(isPathAllowed(['/rolemanage', '/usermanage/**'], '/usermanage/adduser')).toBe(true)
    expect(isPathAllowed(['/rolemanage'], '/usermanage')).toBe(false)
    expect(isPathAllowed([], '/usermanage')).toBe(false)
  })
})

describe('matchesUrlPattern', () => {
  it('needs the method and the uri to match', () => {
    expect(matchesUrlPattern({ method: 'POST', uri: '/user/list' }, 'POST', '/user/list')).toBe(true)
    expect(matchesUrlPattern({ method: 'post', uri: '/user/list' }, 'POST', '/user/list')).toBe(true)
    expect(matchesUrlPattern({ method: 'GET', uri: '/user/list' }, 'POST', '/user/list')).toBe(false)
    expect(matchesUrlPattern({ method: 'POST', uri: '/user/**' }, 'POST', '/user/insert')).toBe(true)
    expect(matchesUrlPattern({ method: '*', uri: '/**' }, 'DELETE', '/role/delete')).toBe(true)
    expect(matchesUrlPattern({ method: 'ALL', uri: '/role/delete' }, 'DELETE', '/role/delete')).toBe(true)
  })
})

describe('findInTree (children are searched recursively)', () => {
  interface Item {
    path: string
    children?: Item[] | null
  }
  const tree: Item[] = [
    { path: '/a', children: [{ path: '/a/b', children: [{ path: '/a/b/c' }] }] },
    { path: '/d', children: null },
  ]
  it('finds nodes at any depth', () => {
    expect(findInTree(tree, (n) => n.path === '/a/b/c')?.path).toBe('/a/b/c')
    expect(findInTree(tree, (n) => n.path === '/d')?.path).toBe('/d')
    expect(findInTree(tree, (n) => n.path === '/x')).toBeUndefined()
  })
})
