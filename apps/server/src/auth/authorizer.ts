import { sql } from 'drizzle-orm'
import { matchesUrlPattern, type UrlPattern } from '@amg/contract'
import { queryRows, type Database, type Db, type DbOrTx } from '../db/connection'
import { auths } from '../db/schema'
import { KeepGuard } from '../lib/keep-guard'

export interface EffectiveAccess {
  roles: { id: number; roleName: string; type: number }[]
  superAdmin: boolean
  /** codes of enabled nodes (every ancestor enabled too) held by the user's enabled roles */
  authCodes: string[]
  /** front-end path patterns, for the console's menu and tabs */
  auths: string[]
  backEnd: UrlPattern[]
}

export interface TreeNode {
  code: string
  chName: string
  parentCode: string | null
  status: number
  frontEndAccess: string[]
  urlPatternInfos: UrlPattern[]
}

interface Trees {
  stored: Map<string, TreeNode>
  enabled: Map<string, TreeNode>
}

const allows = (access: EffectiveAccess, method: string, path: string) =>
  access.superAdmin || access.backEnd.some((p) => matchesUrlPattern(p, method, path))

/**
 * Resolves what a user may do (DESIGN.md §6) and caches it per user. Invalidation follows the data:
 * database triggers on every table that decides access bump `authz_version_seq` and NOTIFY every
 * instance (migration 0001); after each request that may write, the change watch (change-watch.ts)
 * also compares the sequence, so this instance's own writes show on the very next request whatever
 * route made them, while a read that happens to be a POST clears nothing. The keep guard keeps a
 * resolution that raced with a write from being stored.
 */
export class Authorizer {
  private readonly cache = new Map<number, EffectiveAccess>()
  private trees: Trees | undefined
  private readonly guard: KeepGuard

  constructor(
    private readonly db: Db,
    private readonly database: Pick<Database, 'notify' | 'onNotify' | 'hearsEveryChange'>,
  ) {
    this.guard = new KeepGuard(database)
    database.onNotify((payload) => {
      if (payload === 'authz' || payload === '*') this.clear()
    })
  }

  /** Drop every cached answer here at once, then tell the other instances (scripts and tests that bypass the triggers). */
  async invalidate(): Promise<void> {
    this.clear()
    await this.database.notify('authz')
  }

  /** Drop every cached answer here (the change watch calls it when an access table changed). */
  clear() {
    this.guard.changed()
    this.cache.clear()
    this.trees = undefined
  }

  /** Whether this user's answer is cached here (tests show what clears it and what does not). */
  isCached(userId: number): boolean {
    return this.cache.has(userId)
  }

  /**
   * What the user may do. `tx`: resolve inside an open transaction (a power check), reading what it
   * sees without storing the answer, since that transaction may still roll back.
   */
  async resolve(userId: number, tx?: DbOrTx): Promise<EffectiveAccess> {
    const cached = this.cache.get(userId)
    if (cached) return cached
    if (tx) return this.load(userId, tx)
    const token = this.guard.token()
    const access = await this.load(userId, this.db)
    if (this.guard.mayKeep(token)) this.cache.set(userId, access)
    return access
  }

  async can(userId: number, method: string, path: string): Promise<boolean> {
    return allows(await this.resolve(userId), method, path)
  }

  /** `can` answered at once from what is held here; undefined when the user's access is not held. */
  canFromMemory(userId: number, method: string, path: string): boolean | undefined {
    const access = this.cache.get(userId)
    return access === undefined ? undefined : allows(access, method, path)
  }

  private async load(userId: number, db: DbOrTx): Promise<EffectiveAccess> {
    const roleRows = await queryRows<{ id: number; role_name: string; type: number }>(
      db,
      sql`
      select r.id, r.role_name, r.type from roles r
      where r.status = 1 and r.id in (
        select ur.role_id from user_roles ur where ur.user_id = ${userId}
        union
        select gr.role_id from user_group_roles gr
          join user_groups g on g.id = gr.group_id and g.status = 1
          join user_group_users gu on gu.group_id = g.id
          where gu.user_id = ${userId}
        union
        select pr.role_id from position_roles pr
          join positions p on p.id = pr.position_id and p.status = 1
          join position_users pu on pu.position_id = p.id
          where pu.user_id = ${userId}
      ) order by r.id`,
    )
    const roles = roleRows.map((r) => ({ id: Number(r.id), roleName: r.role_name, type: Number(r.type) }))
    const roleIds = roles.map((r) => r.id)
    const codeRows = roleIds.length
      ? await queryRows<{ auth_code: string }>(
          db,
          sql`select distinct auth_code from role_auths where role_id in (${sql.join(roleIds, sql`, `)})`,
        )
      : []
    const tree = await this.loadEnabledTree(db === this.db ? undefined : db)
    const nodes = codeRows.map((r) => tree.get(r.auth_code)).filter((n): n is TreeNode => !!n)
    const frontEnd = new Set<string>()
    const backEnd: UrlPattern[] = []
    for (const n of nodes) {
      n.frontEndAccess.forEach((p) => frontEnd.add(p))
      backEnd.push(...n.urlPatternInfos)
    }
    return {
      roles,
      superAdmin: roles.some((r) => r.type === 1),
      authCodes: nodes.map((n) => n.code).sort(),
      auths: [...frontEnd],
      backEnd,
    }
  }

  /**
   * Every stored node by code, whatever its status: the power check counts stored power (DESIGN.md
   * §6a), since a disabled node gives its power the moment someone enables it. Shared by every user.
   */
  async loadStoredTree(tx?: DbOrTx): Promise<Map<string, TreeNode>> {
    return (await this.loadTrees(tx)).stored
  }

  /** Enabled nodes only: a disabled node disables its whole subtree. Shared by every user. */
  async loadEnabledTree(tx?: DbOrTx): Promise<Map<string, TreeNode>> {
    return (await this.loadTrees(tx)).enabled
  }

  /** Both views of the tree from one read, kept together (inside a transaction: read, never kept). */
  private async loadTrees(tx?: DbOrTx): Promise<Trees> {
    if (this.trees) return this.trees
    const token = this.guard.token()
    const rows: TreeNode[] = await (tx ?? this.db)
      .select({
        code: auths.code,
        chName: auths.chName,
        parentCode: auths.parentCode,
        status: auths.status,
        frontEndAccess: auths.frontEndAccess,
        urlPatternInfos: auths.urlPatternInfos,
      })
      .from(auths)
    const byCode = new Map(rows.map((r) => [r.code, r]))
    const enabled = new Map<string, TreeNode>()
    const isEnabled = (node: TreeNode, seen = new Set<string>()): boolean => {
      if (node.status !== 1 || seen.has(node.code)) return false
      if (!node.parentCode) return true
      const parent = byCode.get(node.parentCode)
      seen.add(node.code)
      return !!parent && isEnabled(parent, seen)
    }
    for (const node of rows) if (isEnabled(node)) enabled.set(node.code, node)
    const trees = { stored: byCode, enabled }
    if (!tx && this.guard.mayKeep(token)) this.trees = trees
    return trees
  }
}
