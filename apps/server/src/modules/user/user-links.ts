import { parseIdList, type IdListInput } from '@amg/contract'
import { RECORDS } from '../../db/tables'
import type { Caller } from '../../auth/user-scope'
import type { Links } from '../links/service'
import { badRequest } from '../../lib/errors'
import { expiryArg } from '../links/ids'

/**
 * One user's links to roles, groups and positions, served by the shared link module (power check,
 * reach check and last-super-admin guard included). DESIGN.md §7: linking twice and unlinking what
 * is not linked are harmless.
 */

export type UserLinkTarget = 'role' | 'group' | 'position'

/** The body of a link call: the user and the ids (`greoupIds` is SPEC.md's spelling of `groupIds`). */
export interface UserLinkBody {
  id: number
  roleIds?: IdListInput
  groupIds?: IdListInput
  greoupIds?: IdListInput
  positionIds?: IdListInput
  /** until when the links hold (DESIGN.md §20); absent or null: permanent */
  expiresAt?: string | null
}

/** The body of an unlink call: the user and the one record taken away. */
export interface UserUnlinkBody {
  userId: number
  roleId?: number
  groupId?: number
  positionId?: number
}

/** The ids to link, in the words of the record linked (角色, 用户组, 岗位). */
function idsOf(body: UserLinkBody, target: UserLinkTarget): number[] {
  const what = RECORDS[target].label
  const ids = parseIdList(target === 'group' ? (body.greoupIds ?? body.groupIds) : body[`${target}Ids`])
  if (ids === null) throw badRequest(`${what}ID格式不正确，应为以逗号分隔的数字`)
  if (ids.length === 0) throw badRequest(`请选择要关联的${what}`)
  return ids
}

/** Links the user to the roles, groups or positions the body names. */
export const linkUserTo = (links: Links, caller: Caller, target: UserLinkTarget, body: UserLinkBody) =>
  links.link({
    owner: 'user',
    ownerId: body.id,
    target,
    targetIds: idsOf(body, target),
    caller,
    expiresAt: expiryArg(body.expiresAt),
  })

/** Takes the user away from the one role, group or position the body names. */
export const unlinkUserFrom = (links: Links, caller: Caller, target: UserLinkTarget, body: UserUnlinkBody) =>
  links.unlink({
    owner: 'user',
    ownerId: body.userId,
    target,
    targetIds: [body[`${target}Id`]!],
    caller,
    requireTargets: true,
  })
