import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import {
  INVISIBLE_CHARACTER,
  NAME_LABELS,
  checkName,
  isCleanName,
  nameMessages,
  normalizeName,
} from '../src/names'

/**
 * Any text: code points from the whole range, most from the first planes where scripts, marks and
 * format characters crowd (lone surrogates included). fast-check's own 'binary' strings are slow to make.
 */
const anyText = (maxLength: number) =>
  fc
    .array(fc.oneof(fc.integer({ min: 0, max: 0x2fff }), fc.integer({ min: 0, max: 0x10ffff })), {
      maxLength,
    })
    .map((points) => String.fromCodePoint(...points))

/** The name rule (DESIGN.md §11) the server and the console share. */
describe('normalizeName', () => {
  it.each([
    ['ａｄｍｉｎ', 'admin'],
    ['  ad   min\u3000', 'ad min'],
    ['㈱研发', '(株)研发'],
    ['ｶﾀｶﾅ', 'カタカナ'],
    ['e\u0301', 'é'],
    ['ﬁ', 'fi'],
    ['\u00a0a\u2003b\u00a0', 'a b'],
  ])('%j is stored as %j', (typed, stored) => {
    expect(normalizeName(typed)).toBe(stored)
  })

  it('is idempotent and NFKC-stable for any text', () => {
    fc.assert(
      fc.property(anyText(40), (text) => {
        const once = normalizeName(text)
        expect(normalizeName(once)).toBe(once)
        expect(once.normalize('NFKC')).toBe(once)
      }),
      { numRuns: 3000 },
    )
  })
})

describe('checkName', () => {
  const label = NAME_LABELS.nickName
  it.each([
    ['admin\u200b', 'invisible'],
    ['\u202eadmin', 'invisible'],
    ['ad\u00admin', 'invisible'],
    ['ad\nmin', 'invisible'],
    ['ad\u{e0061}min', 'invisible'],
    ['ad\ufe0fmin', 'invisible'],
    ['ad\ue000min', 'unusable'],
    ['ad\ud800min', 'unusable'],
    ['\u0430dmin', 'mixedScripts'],
    ['\u0301admin', 'looseMarks'],
  ] as const)('%j is refused as %s', (value, kind) => {
    expect(checkName(value, label)).toBe(nameMessages[kind](label))
  })

  it.each(['admin', '张三', 'Алексей', 'Ωμέγα', '张三abc', 'ａｄｍｉｎ', 'क्षि', '研发 一部', '🚀组'])(
    '%j is a name',
    (value) => expect(checkName(value, label)).toBeNull(),
  )

  it('leaves blank and non-text values to the required rule', () => {
    expect(checkName('', label)).toBeNull()
    expect(checkName('   ', label)).toBeNull()
    expect(checkName(null, label)).toBeNull()
    expect(checkName(12, label)).toBeNull()
  })

  it('what it lets through, normalised, is clean and holds no invisible character', () => {
    fc.assert(
      fc.property(anyText(20), (text) => {
        if (checkName(text, label) !== null) return
        const stored = normalizeName(text)
        expect(INVISIBLE_CHARACTER.test(stored)).toBe(false)
        expect(/[\p{Cf}\p{Default_Ignorable_Code_Point}]/u.test(stored)).toBe(false)
        expect(isCleanName(stored)).toBe(true)
      }),
      { numRuns: 3000 },
    )
  })
})
