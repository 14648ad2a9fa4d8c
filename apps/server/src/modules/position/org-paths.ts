import { sql } from 'drizzle-orm'
import { queryRows, type DbOrTx } from '../../db/connection'

/**
 * A department's `organizationCompleteName` is the names on its path from the root joined by '-'
 * (SPEC.md §3, DESIGN.md §7).
 *
 * The whole tree, for the position lists: every department's complete name and its place in tree order
 * (depth first from the roots, children by id, as the lists show departments). Read in one query and
 * built in memory; the position routes keep it until a department is added, removed, renamed or moved
 * (VersionedCache 'org'), so a list does not recompute 10,000 paths. A department cut off from the
 * roots by a cycle in `parent` (impossible through the API) is left out.
 */
export interface OrgTree {
  /** department ids in tree order */
  order: number[]
  /** per department: its complete name, its index in `order`, and the index just past its subtree */
  nodes: Map<number, { completeName: string; rank: number; end: number }>
}

export async function loadOrgTree(db: DbOrTx): Promise<OrgTree> {
  // one JSON value, not 10,000 rows: the embedded driver pays per row
  const [row] = await queryRows<{ orgs: [number, number | null, string][] | string | null }>(
    db,
    sql`select json_agg(json_build_array(id, parent, organization_name) order by id) as orgs from organizations`,
  )
  const raw = row?.orgs ?? []
  const orgs = typeof raw === 'string' ? (JSON.parse(raw) as [number, number | null, string][]) : raw
  const children = new Map<number | null, [number, string][]>()
  for (const [id, parent, name] of orgs) {
    const siblings = children.get(parent) ?? []
    siblings.push([id, name]) // ids ascending: the query's order
    children.set(parent, siblings)
  }
  const order: number[] = []
  const nodes: OrgTree['nodes'] = new Map()
  // depth first without recursion (no stack limit on deep trees): an entry is [id, name, path, leaving]
  const stack: [number, string, string, boolean][] = (children.get(null) ?? [])
    .map(([id, name]): [number, string, string, boolean] => [id, name, name, false])
    .reverse()
  while (stack.length) {
    const [id, name, path, leaving] = stack.pop()!
    if (leaving) {
      nodes.get(id)!.end = order.length
      continue
    }
    nodes.set(id, { completeName: path, rank: order.length, end: order.length + 1 })
    order.push(id)
    stack.push([id, name, path, true])
    for (const [childId, childName] of [...(children.get(id) ?? [])].reverse())
      stack.push([childId, childName, `${path}-${childName}`, false])
  }
  return { order, nodes }
}

/** `orgId` and the departments below it, in tree order (none when it is unknown). */
export function subtreeOf(tree: OrgTree, orgId: number): number[] {
  const node = tree.nodes.get(orgId)
  return node ? tree.order.slice(node.rank, node.end) : []
}

/**
 * The complete names of the given departments, computed bottom-up from just those departments
 * (cheap for a page of rows). Unknown ids are absent from the answer.
 */
export async function orgCompleteNames(db: DbOrTx, orgIds: readonly number[]): Promise<Map<number, string>> {
  const ids = [...new Set(orgIds)]
  if (ids.length === 0) return new Map()
  const rows = await queryRows<{ id: number; complete_name: string }>(
    db,
    sql`with recursive up(start_id, id, parent, name, depth) as (
      select o.id, o.id, o.parent, o.organization_name::text, 0
        from organizations o where o.id in (${sql.join(ids, sql`, `)})
      union all
      select up.start_id, o.id, o.parent, o.organization_name::text, up.depth + 1
        from organizations o join up on o.id = up.parent
        where up.depth < 1000
    )
    select start_id as id, string_agg(name, '-' order by depth desc) as complete_name
      from up group by start_id`,
  )
  return new Map(rows.map((r) => [Number(r.id), r.complete_name]))
}

/** The complete name of one department, or undefined when it does not exist. */
export async function orgCompleteName(db: DbOrTx, orgId: number): Promise<string | undefined> {
  return (await orgCompleteNames(db, [orgId])).get(orgId)
}
