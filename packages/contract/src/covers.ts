import { matchesPattern, type UrlPattern } from './path-match'

/**
 * Pattern coverage (DESIGN.md §6a): `q` covers `p` when every path `p` matches, `q` matches too.
 * It is what "the caller holds this power" means when the caller's patterns are not the very same
 * strings as the ones being granted. Built on the matcher's three pattern forms:
 *
 * - `/**` covers everything;
 * - `A/**` covers `A`, every exact `A/...`, and every `A/.../**`;
 * - an exact pattern covers only itself.
 */
export function coversPattern(q: string, p: string): boolean {
  const wanted = p.trim()
  const held = q.trim()
  if (held === '/**') return true
  if (wanted === '/**') return false
  if (!wanted.endsWith('/**')) return matchesPattern(held, wanted)
  // `wanted` matches its prefix and everything under it: only a wildcard at or above that prefix covers it
  if (!held.endsWith('/**')) return false
  const heldPrefix = held.slice(0, -3)
  const wantedPrefix = wanted.slice(0, -3)
  return wantedPrefix === heldPrefix || wantedPrefix.startsWith(`${heldPrefix}/`)
}

const anyMethod = (method: string) => {
  const m = method.trim().toUpperCase()
  return m === '*' || m === 'ALL'
}

/** A back-end pattern covers another when its method is any (`*`/`ALL`) or the same, and its uri covers the other's. */
export function coversUrlPattern(q: UrlPattern, p: UrlPattern): boolean {
  const methodOk =
    anyMethod(q.method) ||
    (!anyMethod(p.method) && q.method.trim().toUpperCase() === p.method.trim().toUpperCase())
  return methodOk && coversPattern(q.uri, p.uri)
}

/** The members of `wanted` that no member of `held` covers (empty: the set is covered). */
export function uncoveredPatterns(held: readonly string[], wanted: readonly string[]): string[] {
  return wanted.filter((p) => !held.some((q) => coversPattern(q, p)))
}

/** The members of `wanted` that no member of `held` covers (empty: the set is covered). */
export function uncoveredUrlPatterns(
  held: readonly UrlPattern[],
  wanted: readonly UrlPattern[],
): UrlPattern[] {
  return wanted.filter((p) => !held.some((q) => coversUrlPattern(q, p)))
}

/** The power of a permission node, of a role or of a user: front-end and back-end patterns. */
export interface Power {
  frontEnd: readonly string[]
  backEnd: readonly UrlPattern[]
}

/** True when `held` covers every pattern of `wanted`, front-end and back-end alike. */
export function coversPower(held: Power, wanted: Power): boolean {
  return (
    uncoveredPatterns(held.frontEnd, wanted.frontEnd).length === 0 &&
    uncoveredUrlPatterns(held.backEnd, wanted.backEnd).length === 0
  )
}
