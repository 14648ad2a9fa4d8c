import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import {
  coversPattern,
  coversPower,
  coversUrlPattern,
  matchesPattern,
  matchesUrlPattern,
  uncoveredPatterns,
  uncoveredUrlPatterns,
} from '../src'
import { beyondPowerMessage, BEYOND_POWER_PREFIX } from '../src/messages'

describe('coversPattern (DESIGN.md §6a)', () => {
  it('/** covers everything, and only /** covers /**', () => {
    expect(coversPattern('/**', '/**')).toBe(true)
    expect(coversPattern('/**', '/user/**')).toBe(true)
    expect(coversPattern('/**', '/user/list')).toBe(true)
    expect(coversPattern('/user/**', '/**')).toBe(false)
    expect(coversPattern('/user', '/**')).toBe(false)
  })

  it('A/** covers A, A/... and A/.../**', () => {
    expect(coversPattern('/user/**', '/user')).toBe(true)
    expect(coversPattern('/user/**', '/user/list')).toBe(true)
    expect(coversPattern('/user/**', '/user/**')).toBe(true)
    expect(coversPattern('/user/**', '/user/rel/**')).toBe(true)
    expect(coversPattern('/user/**', '/user/rel/x/**')).toBe(true)
  })

  it('never across a segment boundary', () => {
    expect(coversPattern('/user/**', '/user_groups/list')).toBe(false)
    expect(coversPattern('/user/**', '/user_groups/**')).toBe(false)
    expect(coversPattern('/user/**', '/username')).toBe(false)
    expect(coversPattern('/user/rel/**', '/user/**')).toBe(false)
  })

  it('an exact pattern covers only itself', () => {
    expect(coversPattern('/user/list', '/user/list')).toBe(true)
    expect(coversPattern('/user/list', '/user/list/**')).toBe(false)
    expect(coversPattern('/user/list', '/user/lis')).toBe(false)
    expect(coversPattern('/user', '/user/**')).toBe(false)
  })

  it('ignores white space around both patterns', () => {
    expect(coversPattern(' /user/** ', ' /user/list ')).toBe(true)
  })
})

describe('coversUrlPattern', () => {
  it('needs the same method, or any method held', () => {
    expect(coversUrlPattern({ method: 'GET', uri: '/a' }, { method: 'get', uri: '/a' })).toBe(true)
    expect(coversUrlPattern({ method: 'GET', uri: '/a' }, { method: 'POST', uri: '/a' })).toBe(false)
    expect(coversUrlPattern({ method: '*', uri: '/a' }, { method: 'POST', uri: '/a' })).toBe(true)
    expect(coversUrlPattern({ method: 'ALL', uri: '/**' }, { method: '*', uri: '/a/**' })).toBe(true)
    // a pattern for every method is not covered by one method
    expect(coversUrlPattern({ method: 'GET', uri: '/a' }, { method: '*', uri: '/a' })).toBe(false)
    expect(coversUrlPattern({ method: 'GET', uri: '/a' }, { method: 'ALL', uri: '/a' })).toBe(false)
  })
})

describe('set coverage', () => {
  it('names what is not covered', () => {
    expect(uncoveredPatterns(['/a/**', '/b'], ['/a/x', '/b', '/c'])).toEqual(['/c'])
    expect(
      uncoveredUrlPatterns(
        [{ method: 'GET', uri: '/a/**' }],
        [
          { method: 'GET', uri: '/a/x' },
          { method: 'PUT', uri: '/a/x' },
        ],
      ),
    ).toEqual([{ method: 'PUT', uri: '/a/x' }])
    expect(uncoveredPatterns([], [])).toEqual([])
  })

  it('a power covers another when both its sets do', () => {
    const held = { frontEnd: ['/usermanage/**'], backEnd: [{ method: '*', uri: '/user/**' }] }
    expect(
      coversPower(held, { frontEnd: ['/usermanage'], backEnd: [{ method: 'PUT', uri: '/user/update' }] }),
    ).toBe(true)
    expect(coversPower(held, { frontEnd: ['/rolemanage'], backEnd: [] })).toBe(false)
    expect(
      coversPower(held, { frontEnd: [], backEnd: [{ method: 'PUT', uri: '/user_groups/update' }] }),
    ).toBe(false)
    expect(coversPower({ frontEnd: [], backEnd: [] }, { frontEnd: [], backEnd: [] })).toBe(true)
  })
})

describe('the refusal message', () => {
  it('names at most five missing permissions', () => {
    expect(beyondPowerMessage(['修改用户'])).toBe(`${BEYOND_POWER_PREFIX}修改用户`)
    const msg = beyondPowerMessage(['a', 'b', 'c', 'd', 'e', 'f', 'a'])
    expect(msg.startsWith(BEYOND_POWER_PREFIX)).toBe(true)
    expect(msg).toContain('a、b、c、d、e')
    expect(msg).not.toContain('f')
  })
})

// A small alphabet so that random patterns and paths share segments often enough to be interesting.
const segment = fc.constantFrom('a', 'b', 'ab', 'a_b', '**', '')
const uri = fc.array(segment, { minLength: 0, maxLength: 4 }).map((parts) => `/${parts.join('/')}`)
const pattern = fc.oneof(
  uri,
  uri.map((u) => (u === '/' ? '/**' : `${u}/**`)),
  fc.constant('/**'),
)
const method = fc.constantFrom('GET', 'POST', 'PUT', '*', 'ALL')

/** Paths a pattern matches: its prefix, paths below it, and random paths (kept when they match). */
function pathsMatchedBy(p: string, extra: string[]): string[] {
  const t = p.trim()
  const base = t.endsWith('/**') ? t.slice(0, -3) : t
  const candidates = [
    t,
    base,
    `${base}/a`,
    `${base}/a/b`,
    `${base}/**`,
    `${base}_b`,
    `${base}/ab/x`,
    ...extra,
  ]
  return candidates.filter((path) => matchesPattern(p, path))
}

describe('coverage property: whatever covers(q, p) says, no path matched by p is refused by q', () => {
  it('front-end patterns', () => {
    fc.assert(
      fc.property(pattern, pattern, fc.array(uri, { maxLength: 6 }), (q, p, extra) => {
        if (!coversPattern(q, p)) return true
        return pathsMatchedBy(p, extra).every((path) => matchesPattern(q, path))
      }),
      { numRuns: 5000 },
    )
  })

  it('back-end patterns', () => {
    fc.assert(
      fc.property(
        method,
        pattern,
        method,
        pattern,
        fc.constantFrom('GET', 'POST', 'PUT', 'DELETE'),
        fc.array(uri, { maxLength: 4 }),
        (qm, qu, pm, pu, callMethod, extra) => {
          const q = { method: qm, uri: qu }
          const p = { method: pm, uri: pu }
          if (!coversUrlPattern(q, p)) return true
          return pathsMatchedBy(pu, extra).every(
            (path) => !matchesUrlPattern(p, callMethod, path) || matchesUrlPattern(q, callMethod, path),
          )
        },
      ),
      { numRuns: 5000 },
    )
  })

  it('is not vacuous: coverage holds for a pattern and itself, and for /** over anything', () => {
    fc.assert(
      fc.property(pattern, (p) => coversPattern(p, p) && coversPattern('/**', p)),
      { numRuns: 500 },
    )
  })
})
