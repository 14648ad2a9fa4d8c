import type { AuthzEffectiveResult, AuthzGrant, AuthzVia, ViaKind } from '@amg/contract'

const VIA_KIND_LABEL: Record<ViaKind, string> = { direct: '直接', group: '用户组', position: '岗位' }

/** antd's preset tag colours: they keep their contrast in the light and the dark theme. */
export const VIA_KIND_COLOR: Record<ViaKind, string> = { direct: 'blue', group: 'purple', position: 'orange' }

/**
 * Where a role comes from, as the console names it: '直接' (a direct link names the role itself,
 * so repeating the name would say nothing), '用户组 X' or '岗位 部门全称-职位名'.
 */
export function viaLabel(via: AuthzVia): string {
  return via.kind === 'direct' ? VIA_KIND_LABEL.direct : `${VIA_KIND_LABEL[via.kind]} ${via.name}`
}

/**
 * In a list of users (who-can) no column names the role, so a direct link names it: '直接：客服'.
 * A group or position is named already, and the role it carries is one click away.
 */
export const viaLabelNamingRole = (via: AuthzVia): string =>
  via.kind === 'direct' ? `${VIA_KIND_LABEL.direct}：${via.name}` : viaLabel(via)

/** What a super-admin grant stands in for: it has no node, only the pseudo pattern '* /**'. */
export const ALL_POWER = '全部权限（超级管理员）'

/** One chain of an explain answer as the tester shows it: source → role → node → pattern. */
export interface ChainSteps {
  source: string
  role: string
  node: string
  pattern: string
}

export function chainSteps(grant: AuthzGrant): ChainSteps {
  return {
    source: viaLabel(grant.via),
    role: grant.role.roleName,
    node: grant.node ? `${grant.node.chName}（${grant.node.code}）` : ALL_POWER,
    pattern: `${grant.pattern.method} ${grant.pattern.uri}`,
  }
}

/** A chain on one line, e.g. for a copy or a screen reader: '直接 → 客服 → 用户管理（user） → POST /user/list'. */
export const chainText = (grant: AuthzGrant) => {
  const s = chainSteps(grant)
  return [s.source, s.role, s.node, s.pattern].join(' → ')
}

/** A node of the permission tree (POST /auth/tree) as far as the analysis needs it. */
export interface TreeNodeRef {
  code: string
  chName: string
  children?: readonly TreeNodeRef[] | null
}

/** A node of the user's effective permission tree. */
export interface HeldNode {
  code: string
  chName: string
  /** False for an ancestor the user does not hold, kept so that held nodes stay where they sit. */
  held: boolean
  /** The names of the user's roles that hold the node. */
  roleNames: string[]
  children?: HeldNode[]
}

/**
 * The permission tree cut down to the nodes the user holds (GET /authz/effective), in the tree's
 * order. An ancestor the user does not hold is kept, marked, so that a held node is never shown out
 * of place; a held node the tree lacks (the tree could not be loaded) is listed at the root.
 */
export function heldTree(tree: readonly TreeNodeRef[], effective: AuthzEffectiveResult): HeldNode[] {
  const roleName = new Map(effective.roles.map((r) => [r.id, r.roleName]))
  const holders = new Map(
    effective.nodes.map((n) => [n.code, n.roleIds.map((id) => roleName.get(id) ?? `#${id}`)]),
  )
  const placed = new Set<string>()
  const cut = (nodes: readonly TreeNodeRef[]): HeldNode[] =>
    nodes.flatMap((node) => {
      const children = cut(node.children ?? [])
      const held = holders.has(node.code)
      if (!held && children.length === 0) return []
      placed.add(node.code)
      return [
        {
          code: node.code,
          chName: node.chName,
          held,
          roleNames: holders.get(node.code) ?? [],
          ...(children.length ? { children } : {}),
        },
      ]
    })
  const shaped = cut(tree)
  const unplaced = effective.nodes
    .filter((n) => !placed.has(n.code))
    .map((n) => ({ code: n.code, chName: n.chName, held: true, roleNames: holders.get(n.code) ?? [] }))
  return [...shaped, ...unplaced]
}
