import { positionRoles, userGroupRoles, userGroups, userGroupUsers, userRoles } from '../db/schema'
import { GROUPS, ROLES, TITLE_ROLES } from './demo-roles'
import { insertInBatches, type DemoRun } from './demo-run'
import type { DemoPlaces } from './demo-places'

/** Who gets which role: through positions, directly, and through user groups (made here too). */
export async function seedRoleLinks(
  { tx, rnd, ops, log }: DemoRun,
  { positionRows, stationNameById }: DemoPlaces,
  { userIds, homeOf }: { userIds: number[]; homeOf: { direct?: readonly string[] }[] },
  roleId: Map<string, number>,
) {
  // Position → role: everyone gets 普通员工 through their position; HR, finance and ops titles more.
  const positionRoleRows = positionRows.flatMap((p) => {
    const title = stationNameById.get(p.stationId)!
    return ['普通员工', ...(TITLE_ROLES[title] ?? [])]
      .filter((r) => roleId.has(r))
      .map((r) => ({ positionId: p.id, roleId: roleId.get(r)! }))
  })
  await insertInBatches(tx, positionRoleRows, (t, batch) =>
    t.insert(positionRoles).values(batch).onConflictDoNothing(),
  )

  // Direct user → role: the demo accounts, and a few dozen others.
  const userRoleRows: { userId: number; roleId: number }[] = []
  userIds.forEach((userId, i) => {
    for (const direct of homeOf[i].direct ?? [])
      if (roleId.has(direct)) userRoleRows.push({ userId, roleId: roleId.get(direct)! })
  })
  const extra = Math.min(60, Math.floor(userIds.length / 10))
  const directRoles = ROLES.filter((r) => r.roleName !== '普通员工').map((r) => r.roleName)
  for (let k = 0; k < extra; k++) {
    const role = roleId.get(rnd.pick(directRoles))
    if (role) userRoleRows.push({ userId: userIds[rnd.int(userIds.length)], roleId: role })
  }
  const uniqueUserRoles = [...new Map(userRoleRows.map((r) => [`${r.userId}:${r.roleId}`, r])).values()]
  await insertInBatches(tx, uniqueUserRoles, (t, batch) =>
    t.insert(userRoles).values(batch).onConflictDoNothing(),
  )

  // User groups with their roles and members.
  const groupRows = await tx
    .insert(userGroups)
    .values(
      GROUPS.map((g) => ({
        groupName: g.groupName,
        description: g.description,
        status: g.status ?? 1,
        ...ops,
      })),
    )
    .onConflictDoNothing({ target: userGroups.groupName })
    .returning({ id: userGroups.id, groupName: userGroups.groupName })
  const groupId = new Map(groupRows.map((g) => [g.groupName, g.id]))
  const groupRoleRows = GROUPS.filter((g) => groupId.has(g.groupName)).flatMap((g) =>
    g.roles
      .filter((r) => roleId.has(r))
      .map((r) => ({ groupId: groupId.get(g.groupName)!, roleId: roleId.get(r)! })),
  )
  if (groupRoleRows.length) await tx.insert(userGroupRoles).values(groupRoleRows).onConflictDoNothing()
  const groupUserRows: { groupId: number; userId: number }[] = []
  for (const g of GROUPS) {
    const id = groupId.get(g.groupName)
    if (!id) continue
    const size = Math.min(g.max, Math.max(1, Math.round(userIds.length * g.share)))
    const members = new Set<number>()
    for (let tries = 0; members.size < size && tries < size * 4; tries++)
      members.add(userIds[rnd.int(userIds.length)])
    for (const userId of members) groupUserRows.push({ groupId: id, userId })
  }
  await insertInBatches(tx, groupUserRows, (t, batch) =>
    t.insert(userGroupUsers).values(batch).onConflictDoNothing(),
  )
  log(`用户组 ${groupRows.length} 个`)
  return {
    userGroups: groupRows.length,
    userRoles: uniqueUserRoles.length,
    userGroupUsers: groupUserRows.length,
    positionRoles: positionRoleRows.length,
    userGroupRoles: groupRoleRows.length,
  }
}
