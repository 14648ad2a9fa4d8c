import type { UserGroupNameListBody, UserGroupSimple } from '@amg/contract'
import { userGroups } from '../../db/schema'
import { rolesCarried } from '../../auth/grantable'
import { linkCandidates, type Namelist } from '../links/candidates'
import { notLinkedTo } from '../links/not-linked'

/**
 * Every group as `{ id, groupName, status }`, optionally filtered by name. With `userId`: only
 * the groups that user is NOT in — the candidates of the user's "link groups" popover
 * (docs/decisions.md). Each is marked with whether the caller may grant the roles it carries.
 */
export const groupNameList: Namelist<UserGroupNameListBody, UserGroupSimple> = (db, power, callerId, body) =>
  linkCandidates(db, power, callerId, {
    type: 'group',
    fields: { id: userGroups.id, groupName: userGroups.groupName, status: userGroups.status },
    nameContains: body.groupName,
    where: [body.userId ? notLinkedTo(db, 'user', body.userId, 'group') : undefined],
    rolesOf: (ids) => rolesCarried(db, 'user_group_roles', ids),
  })
