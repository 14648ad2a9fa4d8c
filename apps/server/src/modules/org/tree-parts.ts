import { sql } from 'drizzle-orm'
import {
  MSG,
  ORG_SEARCH_LIMIT,
  type OrgLevelNode,
  type OrgPathStep,
  type OrgSearchHit,
  type OrgTreeQuery,
} from '@amg/contract'
import { badRequest } from '../../lib/errors'
import { queryRows, type Db } from '../../db/connection'
import { containsPattern } from '../../lib/like'

/**
 * Parts of the department tree for a console that opens it level by level (decisions.md "The
 * department tree by levels"): a level, or the departments found by name with their paths. Each is a
 * few indexed queries (organizations_parent_idx), whatever the tree's size.
 */

/** What a GET /org/tree query asks for: one part at most (400 otherwise), the whole tree by default. */
export type AskedPart =
  | { kind: 'level'; parentId: number }
  | { kind: 'roots' }
  | { kind: 'path'; id: number }
  | { kind: 'search'; text: string }
  | { kind: 'tree' }

export function askedPart(query: OrgTreeQuery): AskedPart {
  const asked = (['parentId', 'roots', 'keyword', 'pathTo'] as const).filter((k) => query[k] !== undefined)
  if (asked.length > 1) throw badRequest(MSG.orgTreeOneQuery)
  const { parentId, roots, keyword, pathTo } = query
  if (parentId !== undefined) return { kind: 'level', parentId }
  if (roots !== undefined) return { kind: 'roots' }
  if (pathTo !== undefined) return { kind: 'path', id: pathTo }
  if (keyword !== undefined) {
    const text = keyword.trim()
    if (!text) throw badRequest(MSG.orgTreeKeywordInvalid)
    return { kind: 'search', text }
  }
  return { kind: 'tree' }
}

interface LevelRow {
  id: number
  organization_name: string
  description: string | null
  parent: number | null
  child_count: number
}

const toNode = (r: LevelRow): OrgLevelNode => ({
  id: r.id,
  organizationName: r.organization_name,
  description: r.description,
  parent: r.parent,
  childCount: Number(r.child_count),
  hasChildren: Number(r.child_count) > 0,
})

/** Each department's fields and its number of children (one index lookup per row). */
const LEVEL_COLUMNS = sql`o.id, o.organization_name, o.description, o.parent,
  (SELECT count(*) FROM organizations c WHERE c.parent = o.id)::int AS child_count`

/** The children of `parentId` (an unknown department has none), or the roots when it is null. */
export async function orgLevel(db: Db, parentId: number | null): Promise<OrgLevelNode[]> {
  const rows = await queryRows<LevelRow>(
    db,
    sql`SELECT ${LEVEL_COLUMNS} FROM organizations o
        WHERE ${parentId === null ? sql`o.parent IS NULL` : sql`o.parent = ${parentId}`}
        ORDER BY o.id`,
  )
  return rows.map(toNode)
}

/** The departments whose name contains `keyword` (wildcards taken literally), first ones by id. */
export async function searchOrgs(db: Db, keyword: string): Promise<OrgSearchHit[]> {
  const rows = await queryRows<LevelRow>(
    db,
    sql`SELECT ${LEVEL_COLUMNS} FROM organizations o
        WHERE o.organization_name ILIKE ${containsPattern(keyword)}
        ORDER BY o.id LIMIT ${ORG_SEARCH_LIMIT}`,
  )
  return withPaths(db, rows)
}

/** One department with its path (none when it does not exist): the console opens the tree to it. */
export async function orgWithPath(db: Db, id: number): Promise<OrgSearchHit[]> {
  const rows = await queryRows<LevelRow>(
    db,
    sql`SELECT ${LEVEL_COLUMNS} FROM organizations o WHERE o.id = ${id}`,
  )
  return withPaths(db, rows)
}

/** Adds each department's ancestors, from the root down, read together in one recursive query. */
async function withPaths(db: Db, rows: LevelRow[]): Promise<OrgSearchHit[]> {
  if (!rows.length) return []
  const ids = rows.map((r) => r.id)
  // UNION (not UNION ALL) visits each ancestor once, however many hits share it
  const ancestors = await queryRows<{ id: number; parent: number | null; organization_name: string }>(
    db,
    sql`WITH RECURSIVE up(id) AS (
          SELECT parent FROM organizations WHERE id IN (${sql.join(
            ids.map((id) => sql`${id}`),
            sql`, `,
          )}) AND parent IS NOT NULL
          UNION
          SELECT o.parent FROM up JOIN organizations o ON o.id = up.id WHERE o.parent IS NOT NULL
        )
        SELECT o.id, o.parent, o.organization_name FROM up JOIN organizations o ON o.id = up.id`,
  )
  const byId = new Map(ancestors.map((a) => [a.id, a]))
  return rows.map((r) => {
    const path: OrgPathStep[] = []
    const seen = new Set<number>()
    for (let p = r.parent; p !== null && !seen.has(p);) {
      const step = byId.get(p)
      if (!step) break
      seen.add(p)
      path.unshift({ id: step.id, organizationName: step.organization_name })
      p = step.parent
    }
    return { ...toNode(r), path }
  })
}
