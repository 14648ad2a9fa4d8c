import { eq } from 'drizzle-orm'
import type { UserGroupInsertBody, UserGroupUpdateBody } from '@amg/contract'
import type { Db } from '../../db/connection'
import { userGroupRoles, userGroupUsers, userGroups } from '../../db/schema'
import { guardedChange } from '../../auth/super-admin-guard'
import type { PowerGuard } from '../../auth/power'
import { requireWritableUsers, type Caller } from '../../auth/user-scope'
import { requireExisting } from '../links/existing'
import { idList } from '../links/ids'
import { linkedIds } from '../links/linked-lists'
import { enablingGrants, writeWithinReach } from '../links/reach-grants'
import { setCarrierEnabled } from '../links/carrier-enabled'
import { notFound } from '../../lib/errors'
import { uniqueName } from '../../lib/name-free'

/**
 * A group's creation, change, enabling and deletion. Enabling or disabling a group gives or takes
 * the power of the roles it carries, so each runs the power check (DESIGN.md §6a) and, where it
 * gives, the reach check (§13); the last-super-admin guard watches every change that can take power.
 */

export const GROUP_MSG = {
  notFound: '用户组不存在',
  nameTaken: '用户组名称已存在',
} as const

/** An empty description is stored as none (the schema coerces null to ''). */
const blankToNull = (text: string | null | undefined) => (text && text.trim() !== '' ? text : null)

const { requireFree: assertNameFree, rethrow: onNameTaken } = uniqueName(
  'group',
  'user_groups_group_name',
  GROUP_MSG.nameTaken,
)

/** Enabling or disabling a group gives or takes the power of the roles it carries (DESIGN.md §6a). */
export async function setGroupEnabled(
  db: Db,
  power: PowerGuard,
  id: number,
  enable: boolean,
  operatorId: number,
) {
  await setCarrierEnabled(db, power, operatorId, { kind: 'group', id, enable }, (tx, status) =>
    tx
      .update(userGroups)
      .set({ status, updateUserId: operatorId, updateTime: new Date() })
      .where(eq(userGroups.id, id))
      .returning({ id: userGroups.id }),
  )
}

/** A new group with its role and user links, all in one transaction; unknown ids create nothing. */
export async function insertGroup(
  db: Db,
  power: PowerGuard,
  body: UserGroupInsertBody,
  caller: Caller,
): Promise<number> {
  const operatorId = caller.id
  const groupName = body.groupName.trim()
  const roleIds = idList(body.roleIds, 'roleIds')
  const userIds = idList(body.userIds, 'userIds')
  return db
    .transaction(async (tx) => {
      await assertNameFree(tx, groupName)
      await requireExisting(tx, 'role', roleIds, true)
      await requireExisting(tx, 'user', userIds, true)
      await requireWritableUsers(tx, caller, userIds)
      // the new members get the new roles: both sides' power is at stake
      // the caller's access read once, before the write: the power check and the reach check judge it
      const access = await power.callerAccess(tx, operatorId)
      await power.require(tx, operatorId, { roleIds, userIds }, access)
      const write = async () => {
        const [group] = await tx
          .insert(userGroups)
          .values({
            groupName,
            status: body.status,
            description: blankToNull(body.description),
            createUserId: operatorId,
            updateUserId: operatorId,
          })
          .returning({ id: userGroups.id })
        if (roleIds.length)
          await tx.insert(userGroupRoles).values(roleIds.map((roleId) => ({ groupId: group.id, roleId })))
        if (userIds.length)
          await tx.insert(userGroupUsers).values(userIds.map((userId) => ({ groupId: group.id, userId })))
        return group.id
      }
      // the new members get the new roles with their scope: within the caller's reach (DESIGN.md §13)
      return writeWithinReach(tx, power, access, write, async () => [{ roleIds, userIds }])
    })
    .catch(onNameTaken)
}

/** A change of status gives or takes the power of the group's roles; the last super admin stays. */
export async function updateGroup(db: Db, power: PowerGuard, body: UserGroupUpdateBody, operatorId: number) {
  const groupName = body.groupName.trim()
  await guardedChange(db, async (tx) => {
    const [current] = await tx
      .select({ status: userGroups.status })
      .from(userGroups)
      .where(eq(userGroups.id, body.id))
    if (!current) throw notFound(GROUP_MSG.notFound)
    await assertNameFree(tx, groupName, body.id)
    // a change of status: the caller's access read once for the power check and the reach check
    const access = current.status !== body.status ? await power.callerAccess(tx, operatorId) : undefined
    if (access) await power.require(tx, operatorId, { groupIds: [body.id] }, access)
    const set: Partial<typeof userGroups.$inferInsert> = {
      groupName,
      status: body.status,
      updateUserId: operatorId,
      updateTime: new Date(),
    }
    if (body.description !== undefined) set.description = blankToNull(body.description)
    const write = () => tx.update(userGroups).set(set).where(eq(userGroups.id, body.id))
    if (access && body.status === 1)
      await writeWithinReach(tx, power, access, write, () => enablingGrants(tx, 'group', body.id))
    else await write()
  }).catch(onNameTaken)
}

/**
 * The links go with the group (ON DELETE CASCADE): its members lose the power of its roles. Groups are
 * company-wide, but deleting one removes every member: all of them must lie in scope (DESIGN.md §13).
 */
export async function deleteGroup(db: Db, power: PowerGuard, id: number, caller: Caller) {
  const deleted = await guardedChange(db, async (tx) => {
    await requireExisting(tx, 'group', [id])
    await requireWritableUsers(tx, caller, await linkedIds(tx, 'group', id, 'user'))
    await power.require(tx, caller.id, { groupIds: [id] })
    return tx.delete(userGroups).where(eq(userGroups.id, id)).returning({ id: userGroups.id })
  })
  if (deleted.length === 0) throw notFound(GROUP_MSG.notFound)
}
