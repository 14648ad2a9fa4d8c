import {
  checkMobile,
  DIRECTORY_MSG,
  isBlank,
  isReservedUserName,
  MSG,
  normalizeMobile,
  type UserInsertBody,
  type UserUpdateBody,
} from '@amg/contract'
import { LAST_SUPER_ADMIN_MSG } from '../../auth/super-admin-guard'
import { badRequest } from '../../lib/errors'
import { uniqueName } from '../../lib/name-free'

/** What a user's fields must be, checked before any write (the new user, the update, the import). */

export const USER_MSG = {
  notFound: '用户不存在',
  nickNameTaken: '用户昵称已存在',
  freezeSelf: '不能冻结自己！',
  lastSuperAdmin: LAST_SUPER_ADMIN_MSG,
} as const

/** Empty strings and null clear an optional text; undefined leaves it as it is. */
export const optionalText = (value: string | null | undefined): string | null | undefined =>
  value === undefined ? undefined : isBlank(value) ? null : value!.trim()

/** A mobile as stored (normalizeMobile: full-width digits become digits); blank clears it, as above. */
export const optionalMobile = (value: string | null | undefined): string | null | undefined => {
  const text = optionalText(value)
  return text ? normalizeMobile(text) : text
}

export const { requireFree: ensureNickNameFree, rethrow: onNickNameTaken } = uniqueName(
  'user',
  'users_nick_name',
  USER_MSG.nickNameTaken,
)

/** The mobile's rule; a password's is the policy as set (requirePolicy), checked where it is set. */
function checkContact(body: { mobile?: string | null }) {
  const problem = checkMobile(body.mobile)
  if (problem) throw badRequest(problem)
}

/** The checks of a new user that need no database; answers the name as stored. */
export function checkNewUser(body: UserInsertBody): string {
  const nickName = body.nickName.trim()
  if (nickName === '') throw badRequest(MSG.nickNameBlank)
  // service accounts are made only by turning a machine client on (DESIGN.md §11)
  if (isReservedUserName(nickName)) throw badRequest(MSG.nickNameReserved)
  checkContact(body)
  return nickName
}

/** The checks of a user update that need no database; answers the name as stored. */
export function checkUserUpdate(body: UserUpdateBody): string {
  const nickName = body.nickName.trim()
  if (nickName === '') throw badRequest(MSG.nickNameRequired)
  checkContact(body)
  return nickName
}

/**
 * A user from the directory (DESIGN.md §22) keeps the directory's name, fields and password: the
 * directory is where they change, and the next sync would put them back. Their status, positions,
 * roles and groups given here stay this system's to change.
 */
export function requireDirectoryFieldsKept(
  existing: { source: string; nickName: string; realName: string | null; mobile: string | null },
  nickName: string,
  body: Pick<UserUpdateBody, 'realName' | 'mobile'>,
  passwordHash: string | undefined,
): void {
  if (existing.source !== 'ldap') return
  // undefined: the field is left as it is
  const same = (a: string | null | undefined, b: string | null) =>
    a === undefined || (a || null) === (b || null)
  if (
    nickName !== existing.nickName ||
    !same(optionalText(body.realName), existing.realName) ||
    !same(optionalMobile(body.mobile), existing.mobile) ||
    passwordHash
  )
    throw badRequest(DIRECTORY_MSG.directoryField)
}
