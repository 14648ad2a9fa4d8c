import type {
  IdListInput,
  PositionRoleLinkBody,
  PositionRoleListQuery,
  PositionUserLinkBody,
  PositionUserListQuery,
} from '@amg/contract'
import type { Db } from '../../db/connection'
import { requirePositionsInScope, visibleUser, type Caller } from '../../auth/user-scope'
import type { Links } from '../links/service'
import { requireExisting } from '../links/existing'
import { linkedTab } from '../links/linked-lists'
import { expiryArg, nonEmptyIdList } from '../links/ids'

/**
 * A position's roles and holders: linked and unlinked by the shared link module (power check and
 * last-super-admin guard included), listed in its 关联角色 and 关联用户 tabs.
 */

const TARGETS = {
  role: { field: 'roleIds', what: '角色' },
  user: { field: 'userIds', what: '用户' },
} as const

function change(
  links: Links,
  how: 'link' | 'unlink',
  positionId: number,
  target: keyof typeof TARGETS,
  ids: IdListInput,
  caller: Caller,
  expiresAt?: string | null,
) {
  const { field, what } = TARGETS[target]
  const selection = `${how === 'link' ? '要关联的' : '要移除的'}${what}`
  return links[how]({
    owner: 'position',
    ownerId: positionId,
    target,
    targetIds: nonEmptyIdList(ids, field, selection),
    caller,
    ...(how === 'link' && target === 'user' ? { expiresAt: expiryArg(expiresAt) } : {}),
  })
}

export const linkRoles = (links: Links, body: PositionRoleLinkBody, caller: Caller) =>
  change(links, 'link', body.positionId, 'role', body.roleIds, caller)

export const unlinkRoles = (links: Links, body: PositionRoleLinkBody, caller: Caller) =>
  change(links, 'unlink', body.positionId, 'role', body.roleIds, caller)

export const linkUsers = (links: Links, body: PositionUserLinkBody, caller: Caller) =>
  change(links, 'link', body.positionId, 'user', body.userIds, caller, body.expiresAt)

export const unlinkUsers = (links: Links, body: PositionUserLinkBody, caller: Caller) =>
  change(links, 'unlink', body.positionId, 'user', body.userIds, caller)

/** The position's roles, as its 关联角色 tab lists them. */
export const positionRoleList = (db: Db, q: PositionRoleListQuery, caller: Caller) =>
  tab(db, q.positionId, caller, { target: 'role', nameContains: q.roleName, page: q })

/** The position's holders, as its 关联用户 tab lists them. */
export const positionUserList = (db: Db, q: PositionUserListQuery, caller: Caller) =>
  tab(db, q.id, caller, {
    target: 'user',
    nameContains: q.nickName,
    page: q,
    visible: (id) => visibleUser(caller, id),
  })

type TabQuery<T extends 'role' | 'user'> = Omit<Parameters<typeof linkedTab<T>>[1], 'owner' | 'ownerId'>

/** One of the position's tabs, once the position is known to exist and lie in the caller's scope. */
async function tab<T extends 'role' | 'user'>(
  db: Db,
  positionId: number,
  caller: Caller,
  query: TabQuery<T>,
) {
  await requireExisting(db, 'position', [positionId])
  await requirePositionsInScope(db, caller, [positionId])
  return linkedTab<T>(db, { owner: 'position', ownerId: positionId, ...query })
}
