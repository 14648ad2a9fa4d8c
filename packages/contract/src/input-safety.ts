/**
 * What no request may carry, whatever its schema says (DESIGN.md §11): control characters in text
 * (NUL breaks PostgreSQL's text type; the others have no place in names and descriptions — tab and
 * line breaks are allowed), numbers that are not finite (JSON's `1e400` parses to Infinity), and
 * numbers beyond a 32-bit integer (every id, page, count and order number here is one). Checked once
 * for every call, so no route can forget it.
 */

// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/
export const MAX_INT32 = 2147483647
export const MIN_INT32 = -2147483648
/** Nesting deeper than this is no form's shape; refusing it also bounds the scan. */
const MAX_DEPTH = 32

export interface UnsafeInput {
  /** the field's path, e.g. `nickName` or `urlPatternInfos.0.uri` */
  field: string
  problem: string
}

export const unsafeInputMessage = ({ field, problem }: UnsafeInput) => `参数 ${field} 不正确：${problem}`

/** The first unsafe value in a parsed body, query or path parameters, or null. */
export function findUnsafeInput(value: unknown, field = '', depth = 0): UnsafeInput | null {
  const name = field || '请求参数'
  if (typeof value === 'string') {
    return CONTROL_CHARACTERS.test(value) ? { field: name, problem: '不能包含控制字符' } : null
  }
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return { field: name, problem: '不是有效的数字' }
    if (value > MAX_INT32 || value < MIN_INT32) return { field: name, problem: '数值超出范围' }
    return null
  }
  if (value === null || typeof value !== 'object') return null
  if (depth >= MAX_DEPTH) return { field: name, problem: '嵌套层次过深' }
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value)
  for (const [key, child] of entries) {
    const keyProblem = findUnsafeInput(key, field ? `${field}.${key}` : key, depth + 1)
    if (keyProblem) return keyProblem
    const found = findUnsafeInput(child, field ? `${field}.${key}` : key, depth + 1)
    if (found) return found
  }
  return null
}
