import { DATA_SCOPE } from '@amg/contract'
import { auths, roleAuths, roles, services } from '../db/schema'
import { SEED_AUTH_TREE } from '../db/seed-auth-tree'
import { flattenSeedTree } from './base'
import { DEMO_SERVICE, DEMO_SERVICE_TREE } from './demo-company'
import { ROLES } from './demo-roles'
import type { DemoRun } from './demo-run'

/** The demo service with its permission subtree, and the roles with their permission codes. */
export async function seedServiceAndRoles({ tx, ops, log }: DemoRun) {
  // The demo service: its subtree at the end of the top level, and the service owning it.
  const serviceRows = flattenSeedTree([DEMO_SERVICE_TREE]).map((r) =>
    r.parentCode === null ? { ...r, seq: SEED_AUTH_TREE.length + 1 } : r,
  )
  await tx.insert(auths).values(serviceRows).onConflictDoNothing({ target: auths.code })
  await tx
    .insert(services)
    .values({ key: DEMO_SERVICE.key, name: DEMO_SERVICE.name, rootCode: DEMO_SERVICE_TREE.code, ...ops })
    .onConflictDoNothing()
  log(`服务 ${DEMO_SERVICE.name}（${DEMO_SERVICE.key}）`)

  // Roles with their permission codes (plus the ancestors the role form checks along).
  const parentOf = new Map(
    [...flattenSeedTree(SEED_AUTH_TREE), ...serviceRows].map((r) => [r.code, r.parentCode ?? null]),
  )
  const withAncestors = (codes: string[]) => {
    const out = new Set<string>()
    for (const code of codes) {
      for (let c: string | null | undefined = code; c; c = parentOf.get(c)) out.add(c)
    }
    return [...out]
  }
  const roleRows = await tx
    .insert(roles)
    .values(
      ROLES.map((r) => ({
        roleName: r.roleName,
        description: r.description,
        type: 3,
        status: r.status ?? 1,
        dataScope: r.dataScope ?? DATA_SCOPE.all,
        ...ops,
      })),
    )
    .onConflictDoNothing({ target: roles.roleName })
    .returning({ id: roles.id, roleName: roles.roleName })
  const roleId = new Map(roleRows.map((r) => [r.roleName, r.id]))
  const roleAuthRows = ROLES.filter((r) => roleId.has(r.roleName)).flatMap((r) =>
    withAncestors(r.codes)
      .filter((code) => parentOf.has(code))
      .map((authCode) => ({ roleId: roleId.get(r.roleName)!, authCode })),
  )
  if (roleAuthRows.length) await tx.insert(roleAuths).values(roleAuthRows).onConflictDoNothing()
  log(`角色 ${roleRows.length} 个`)
  return { roles: roleRows.length, roleId }
}
