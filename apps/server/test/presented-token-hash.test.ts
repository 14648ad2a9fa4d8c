import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { hashPresentedToken, hashToken } from '../src/lib/tokens'

/**
 * The hash of a presented token is kept for the tokens seen lately (lib/tokens.ts): whatever tokens
 * come, in whatever order and however many (past the bound, when it starts afresh), each answer is the
 * token's own SHA-256, as `hashToken` gives it.
 */
describe('the hash of a presented token', () => {
  it('is always hashToken of that token, over any sequence of tokens', () => {
    const token = fc.oneof(
      fc.string({ minLength: 1, maxLength: 60 }),
      fc.string({ unit: 'binary', minLength: 1, maxLength: 200 }),
      fc.constantFrom('abc', 'ABC', 'abc ', ' abc', 'ak_abc', 'a'.repeat(128), 'a'.repeat(129)),
    )
    fc.assert(
      fc.property(fc.array(token, { minLength: 1, maxLength: 200 }), (tokens) => {
        for (const t of tokens) expect(hashPresentedToken(t)).toBe(hashToken(t))
      }),
    )
  })

  it('stays right past the number of tokens it keeps', () => {
    const tokens = Array.from({ length: 25_000 }, (_, i) => `token-${i}-${i % 7}`)
    for (const t of tokens) hashPresentedToken(t)
    // asked again in another order: the older ones were dropped when it started afresh, the newer kept
    for (const t of [...tokens].reverse()) expect(hashPresentedToken(t)).toBe(hashToken(t))
    expect(hashPresentedToken('token-1-1')).toBe(hashToken('token-1-1'))
    expect(hashPresentedToken('token-1-1')).not.toBe(hashToken('token-1-2'))
  })
})
