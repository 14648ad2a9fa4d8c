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
export function findUnsafeInput(value: unknown, field = ''): UnsafeInput | null {
  const found = unsafeAt(value, 0)
  if (!found) return null
  const path = [field, ...found.keys.reverse()].filter((key) => key !== '').join('.')
  return { field: path || '请求参数', problem: found.problem }
}

/**
 * The walk behind `findUnsafeInput`. It runs on every request, twice, so on safe input (nearly all)
 * it allocates nothing: the path of a problem is put together only once one is found, innermost key
 * first.
 */
function unsafeAt(value: unknown, depth: number): { keys: string[]; problem: string } | null {
  if (typeof value === 'string') {
    return CONTROL_CHARACTERS.test(value) ? { keys: [], problem: '不能包含控制字符' } : null
  }
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return { keys: [], problem: '不是有效的数字' }
    if (value > MAX_INT32 || value < MIN_INT32) return { keys: [], problem: '数值超出范围' }
    return null
  }
  if (value === null || typeof value !== 'object') return null
  if (depth >= MAX_DEPTH) return { keys: [], problem: '嵌套层次过深' }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = unsafeAt(value[i], depth + 1)
      if (found) return (found.keys.push(String(i)), found)
    }
    return null
  }
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue
    // the key is text like any value, so it is checked as one
    const found = unsafeAt(key, depth + 1) ?? unsafeAt((value as Record<string, unknown>)[key], depth + 1)
    if (found) return (found.keys.push(key), found)
  }
  return null
}
