import type { GroupRoleListQuery, GroupUserListQuery, IdListInput } from '@amg/contract'
import type { Db } from '../../db/connection'
import { RECORDS } from '../../db/tables'
import { visibleUser, type Caller } from '../../auth/user-scope'
import type { Links } from '../links/service'
import { expiryArg, nonEmptyIdList } from '../links/ids'
import { linkedTab } from '../links/linked-lists'

/**
 * One group's links to roles and members: the changes, served by the shared link module (power check,
 * reach check and last-super-admin guard included), and the 关联角色 and 关联用户 tabs listing them.
 */

/** The body of a group's link call: the group and the roles (`roleIds`) or users (`userIds`). */
export interface GroupLinkBody {
  userGroupsId: number
  roleIds?: IdListInput
  userIds?: IdListInput
  /** linking users: until when they are members (DESIGN.md §20); absent or null: permanent */
  expiresAt?: string | null
}

/** Links the group to the roles or users the body names, or, with `unlink`, takes them away. */
export const changeGroupLinks = (
  links: Links,
  caller: Caller,
  change: 'link' | 'unlink',
  target: 'role' | 'user',
  body: GroupLinkBody,
) =>
  links[change]({
    owner: 'group',
    ownerId: body.userGroupsId,
    target,
    targetIds: nonEmptyIdList(
      body[`${target}Ids`],
      `${target}Ids`,
      `要${change === 'link' ? '关联' : '移除'}的${RECORDS[target].label}`,
    ),
    caller,
    ...(change === 'link' && target === 'user' ? { expiresAt: expiryArg(body.expiresAt) } : {}),
  })

/**
 * The group's members, as its 关联用户 tab lists them. Members outside the caller's scope are not
 * listed; `outsideCount` says how many there are (DESIGN.md §13).
 */
export const groupUsers = (db: Db, q: GroupUserListQuery, caller: Caller) =>
  linkedTab(db, {
    owner: 'group',
    ownerId: q.id,
    target: 'user',
    nameContains: q.nickName,
    page: q,
    visible: (id) => visibleUser(caller, id),
  })

/** The group's roles, as its 关联角色 tab lists them. */
export const groupRoles = (db: Db, q: GroupRoleListQuery) =>
  linkedTab(db, { owner: 'group', ownerId: q.userGroupId, target: 'role', nameContains: q.roleName, page: q })
