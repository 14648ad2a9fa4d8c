import { scimBad, SCIM_MSG } from './errors'

/**
 * SCIM filters (RFC 7644 §3.4.2.2): `eq ne co sw ew gt ge lt le pr`, `and`, `or`, `not`, parentheses;
 * keywords in any case. A small parser of our own (decisions.md "SCIM"): its errors must be SCIM's
 * `invalidFilter` with a Chinese detail, and the same parser reads PATCH's value filters
 * (`members[value eq "7"]`), which are matched in memory (`matches`).
 */

export type CompareOp = 'eq' | 'ne' | 'co' | 'sw' | 'ew' | 'gt' | 'ge' | 'lt' | 'le'
export type Filter =
  | { op: 'and' | 'or'; left: Filter; right: Filter }
  | { op: 'not'; filter: Filter }
  | { op: 'pr'; attr: string }
  | { op: CompareOp; attr: string; value: string | number | boolean | null }

const COMPARE = new Set(['eq', 'ne', 'co', 'sw', 'ew', 'gt', 'ge', 'lt', 'le'])

type Token = { kind: 'word' | 'string' | '(' | ')'; text: string }

function tokenize(text: string, bad: () => Error): Token[] {
  const tokens: Token[] = []
  let i = 0
  while (i < text.length) {
    const c = text[i]
    if (/\s/.test(c)) {
      i++
    } else if (c === '(' || c === ')') {
      tokens.push({ kind: c, text: c })
      i++
    } else if (c === '"') {
      let j = i + 1
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1
      if (j >= text.length) throw bad()
      try {
        tokens.push({ kind: 'string', text: JSON.parse(text.slice(i, j + 1)) as string })
      } catch {
        throw bad()
      }
      i = j + 1
    } else {
      const m = /^[^\s()"[\]]+/.exec(text.slice(i))
      if (!m) throw bad()
      tokens.push({ kind: 'word', text: m[0] })
      i += m[0].length
    }
  }
  return tokens
}

/** The attribute path of a filter: `userName`, `name.formatted`, or with its schema's URN in front. */
const ATTR = /^(?:urn:[A-Za-z0-9:._-]+:)?[A-Za-z][\w$-]*(?:\.[A-Za-z][\w$-]*)?$/

/** Parses a filter; `invalidFilter` (400) with `detail` for anything it cannot read. */
export function parseFilter(text: string, detail: string = SCIM_MSG.badFilter): Filter {
  const bad = () => scimBad('invalidFilter', `${detail}：${text.slice(0, 200)}`)
  if (text.length > 2000) throw bad()
  const tokens = tokenize(text, bad)
  let at = 0
  const peekWord = () => (tokens[at]?.kind === 'word' ? tokens[at].text.toLowerCase() : undefined)

  const value = (): string | number | boolean | null => {
    const t = tokens[at++]
    if (!t) throw bad()
    if (t.kind === 'string') return t.text
    if (t.kind !== 'word') throw bad()
    const word = t.text.toLowerCase()
    if (word === 'true') return true
    if (word === 'false') return false
    if (word === 'null') return null
    if (/^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(t.text)) return Number(t.text)
    throw bad()
  }

  const unary = (): Filter => {
    const t = tokens[at]
    if (!t) throw bad()
    if (t.kind === '(') {
      at++
      const inner = or()
      if (tokens[at++]?.kind !== ')') throw bad()
      return inner
    }
    if (peekWord() === 'not' && tokens[at + 1]?.kind === '(') {
      at++
      return { op: 'not', filter: unary() }
    }
    if (t.kind !== 'word' || !ATTR.test(t.text)) throw bad()
    at++
    const op = peekWord()
    if (!op) throw bad()
    at++
    if (op === 'pr') return { op: 'pr', attr: t.text }
    if (!COMPARE.has(op)) throw bad()
    return { op: op as CompareOp, attr: t.text, value: value() }
  }

  /** `operand (word operand)*`, grouped from the left: `and` binds tighter than `or`. */
  const chain = (word: 'and' | 'or', operand: () => Filter) => (): Filter => {
    let left = operand()
    while (peekWord() === word) {
      at++
      left = { op: word, left, right: operand() }
    }
    return left
  }
  const and = chain('and', unary)
  const or = chain('or', and)

  const filter = or()
  if (at !== tokens.length) throw bad()
  return filter
}

/** An attribute of an object by name, case-insensitive as SCIM's attribute names are. */
export function attrOf(object: unknown, name: string): unknown {
  if (!object || typeof object !== 'object') return undefined
  const key = Object.keys(object).find((k) => k.toLowerCase() === name.toLowerCase())
  return key === undefined ? undefined : (object as Record<string, unknown>)[key]
}

const text = (v: unknown) => (typeof v === 'string' ? v.toLowerCase() : v)

/** Whether one element of a multi-valued attribute matches a value filter (strings compared case-insensitively). */
export function matches(filter: Filter, element: unknown): boolean {
  switch (filter.op) {
    case 'and':
      return matches(filter.left, element) && matches(filter.right, element)
    case 'or':
      return matches(filter.left, element) || matches(filter.right, element)
    case 'not':
      return !matches(filter.filter, element)
    case 'pr': {
      const v = pathValue(element, filter.attr)
      return v !== undefined && v !== null && v !== '' && !(Array.isArray(v) && v.length === 0)
    }
  }
  const actual = text(pathValue(element, filter.attr))
  // an id written as a number matches its string form: members' values are ids
  const wanted = text(filter.value)
  const same =
    actual === wanted || (actual !== undefined && actual !== null && String(actual) === String(wanted))
  if (filter.op === 'eq') return same
  if (filter.op === 'ne') return !same
  if (typeof actual !== 'string' || typeof wanted !== 'string') {
    if (typeof actual !== 'number' || typeof wanted !== 'number') return false
  }
  const a = actual as string
  const w = wanted as string
  switch (filter.op) {
    case 'co':
      return a.includes(w)
    case 'sw':
      return a.startsWith(w)
    case 'ew':
      return a.endsWith(w)
    case 'gt':
      return a > w
    case 'ge':
      return a >= w
    case 'lt':
      return a < w
    case 'le':
      return a <= w
  }
}

function pathValue(element: unknown, attr: string): unknown {
  return attr.split('.').reduce<unknown>((v, part) => attrOf(v, part), element)
}
