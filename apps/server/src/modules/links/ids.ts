import { parseIdList, type IdListInput } from '@amg/contract'
import { badRequest } from '../../lib/errors'

/** Id lists and page arguments as the link calls and the user-group and position lists take them. */

/** A comma-joined id list ("1,2"), a number or an array, as unique ids; 400 when malformed. */
export function idList(value: IdListInput | null | undefined, field: string): number[] {
  const ids = parseIdList(value ?? null)
  if (!ids) throw badRequest(`参数 ${field} 不正确：应为以逗号分隔的 id`)
  if (ids.some((id) => id > 2147483647)) throw badRequest(`参数 ${field} 不正确：id 超出范围`)
  return ids
}

/** Like idList, but at least one id (the link buttons need a selection, SPEC.md §5). */
export function nonEmptyIdList(value: IdListInput | null | undefined, field: string, what: string): number[] {
  const ids = idList(value, field)
  if (ids.length === 0) throw badRequest(`请选择${what}`)
  return ids
}

/** Page arguments with SPEC.md's lower-case spellings accepted too. */
export function paging(q: { pagenum?: number; pagesize?: number; pageNum?: number; pageSize?: number }) {
  const pageNum = q.pageNum ?? q.pagenum ?? 1
  const pageSize = q.pageSize ?? q.pagesize ?? 10
  return { pageNum, pageSize, offset: Math.min((pageNum - 1) * pageSize, Number.MAX_SAFE_INTEGER) }
}
