import { LINK_EXPIRY_MSG, parseExpiresAt, parseIdList, type IdListInput } from '@amg/contract'
import { badRequest } from '../../lib/errors'

/** Id lists and page arguments as the link calls and the user-group and position lists take them. */

/** A comma-joined id list ("1,2"), a number or an array, as unique ids; 400 when malformed. */
export function idList(value: IdListInput | null | undefined, field: string): number[] {
  const ids = parseIdList(value ?? null)
  if (!ids) throw badRequest(`参数 ${field} 不正确：应为以逗号分隔的 id`)
  if (ids.some((id) => id > 2147483647)) throw badRequest(`参数 ${field} 不正确：id 超出范围`)
  return ids
}

/** A department's or job title's id list, unique ids; 400 `invalid` when malformed. */
export function idListOr(value: IdListInput | null | undefined, invalid: string): number[] {
  const ids = parseIdList(value ?? null)
  if (ids === null) throw badRequest(invalid)
  return ids
}

/** Like idList, but at least one id (the link buttons need a selection, SPEC.md §5). */
export function nonEmptyIdList(value: IdListInput | null | undefined, field: string, what: string): number[] {
  const ids = idList(value, field)
  if (ids.length === 0) throw badRequest(`请选择${what}`)
  return ids
}

/** A link call's `expiresAt` (DESIGN.md §20): a Date, or null for permanent; 400 when malformed. */
export function expiryArg(value: string | null | undefined): Date | null {
  const parsed = parseExpiresAt(value)
  if (parsed === 'invalid') throw badRequest(LINK_EXPIRY_MSG.invalid)
  return parsed
}
