import { and, eq, isNull } from 'drizzle-orm'
import { ROLE_TYPE } from '@amg/contract'
import type { Db } from '../db/connection'
import { auths, organizations, roleAuths, roles, userRoles, users } from '../db/schema'
import { SEED_AUTH_TREE, type SeedAuthNode } from '../db/seed-auth-tree'
import { hashPassword, verifyPassword } from '../auth/password'
import { BUILT_IN_ADMIN_PASSWORD } from '../config'

export const SUPER_ADMIN_ROLE_NAME = '超级管理员'
export const ADMIN_NICK_NAME = 'admin'
export const ROOT_ORG_NAME = '总公司'

/** Flatten the seed tree into rows with parent codes, levels and sibling order. */
export function flattenSeedTree(nodes: SeedAuthNode[], parentCode: string | null = null, level = 1) {
  const rows: (typeof auths.$inferInsert)[] = []
  nodes.forEach((node, i) => {
    rows.push({
      code: node.code,
      parentCode,
      level,
      chName: node.chName,
      enName: node.enName,
      type: node.type,
      status: 1,
      seq: i + 1,
      frontEndAccess: node.frontEnd ?? [],
      urlPatternInfos: (node.api ?? []).map((entry) => {
        const [method, uri] = entry.split(' ')
        return { method, uri }
      }),
    })
    rows.push(...flattenSeedTree(node.children ?? [], node.code, level + 1))
  })
  return rows
}

/**
 * First-start data (DESIGN.md §5). Idempotent: each part is added only when missing, so a restart
 * adds nothing twice and never overwrites what administrators changed.
 */
export async function seedBase(
  db: Db,
  opts: { initialAdminPassword: string; initialAdminPasswordChosen: boolean },
): Promise<void> {
  await seedTreeAndAdmin(db, opts)
  if (!opts.initialAdminPasswordChosen) await markDefaultAdminPassword(db)
}

/**
 * The built-in default `Admin@123456` is known to everyone: an admin still on it must change it at the
 * next sign-in (DESIGN.md §14), in a database seeded by an older version too. Only while the password
 * is still the initial one is it checked, so this costs one hash once, not at every start.
 */
async function markDefaultAdminPassword(db: Db): Promise<void> {
  const [admin] = await db
    .select({ id: users.id, hash: users.passwordHash })
    .from(users)
    .where(
      and(
        eq(users.nickName, ADMIN_NICK_NAME),
        eq(users.passwordIsInitial, 1),
        eq(users.mustChangePassword, 0),
      ),
    )
  if (admin && (await verifyPassword(BUILT_IN_ADMIN_PASSWORD, admin.hash)))
    await db.update(users).set({ mustChangePassword: 1 }).where(eq(users.id, admin.id))
}

async function seedTreeAndAdmin(
  db: Db,
  opts: { initialAdminPassword: string; initialAdminPasswordChosen: boolean },
): Promise<void> {
  const treeRows = flattenSeedTree(SEED_AUTH_TREE)
  await db.transaction(async (tx) => {
    await tx.insert(auths).values(treeRows).onConflictDoNothing({ target: auths.code })

    const [existingRoot] = await tx
      .select({ id: organizations.id })
      .from(organizations)
      .where(isNull(organizations.parent))
      .limit(1)
    if (!existingRoot)
      await tx.insert(organizations).values({ organizationName: ROOT_ORG_NAME, description: '组织架构的根' })

    const [superRole] = await tx
      .select({ id: roles.id })
      .from(roles)
      .where(eq(roles.type, ROLE_TYPE.superAdmin))
      .limit(1)
    if (superRole) return
    const [role] = await tx
      .insert(roles)
      .values({
        roleName: SUPER_ADMIN_ROLE_NAME,
        type: ROLE_TYPE.superAdmin,
        status: 1,
        description: '拥有全部权限',
      })
      .returning({ id: roles.id })
    await tx
      .insert(roleAuths)
      .values(treeRows.map((r) => ({ roleId: role.id, authCode: r.code })))
      .onConflictDoNothing()
    let [admin] = await tx
      .select({ id: users.id })
      .from(users)
      .where(eq(users.nickName, ADMIN_NICK_NAME))
      .limit(1)
    if (!admin) {
      ;[admin] = await tx
        .insert(users)
        .values({
          nickName: ADMIN_NICK_NAME,
          realName: '系统管理员',
          passwordHash: await hashPassword(opts.initialAdminPassword),
          passwordIsInitial: 1,
          // the operator's own choice stands; the built-in default must be changed at first sign-in
          mustChangePassword: opts.initialAdminPasswordChosen ? 0 : 1,
          status: 1,
        })
        .returning({ id: users.id })
    }
    await tx.insert(userRoles).values({ userId: admin.id, roleId: role.id }).onConflictDoNothing()
  })
}
