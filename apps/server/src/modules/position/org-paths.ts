import { sql, type SQL } from 'drizzle-orm'
import { queryRows, type DbOrTx } from '../../db/connection'

/**
 * A department's `organizationCompleteName` is the names on its path from the root joined by '-'
 * (SPEC.md §3, DESIGN.md §7). One recursive query computes it for many departments at once.
 *
 * `orgPathsCte()` is a WITH-clause fragment defining `org_paths(id, complete_name, ids)`:
 *  - `complete_name`: the path of names from the root, joined by '-';
 *  - `ids`: the department ids on that path, root first (so `X = any(ids)` means "X or one of
 *    its ancestors", i.e. the row lies in X's subtree; ordering by `ids` gives tree order).
 * Use it as `sql\`with recursive ${orgPathsCte()} select ... join org_paths op on op.id = ...\``.
 * A cycle in `parent` (impossible through the API) is cut instead of looping.
 */
export function orgPathsCte(): SQL {
  return sql`org_paths(id, complete_name, ids) as (
    select o.id, o.organization_name::text, array[o.id]
      from organizations o where o.parent is null
    union all
    select o.id, op.complete_name || '-' || o.organization_name, op.ids || o.id
      from organizations o join org_paths op on o.parent = op.id
      where not o.id = any(op.ids)
  )`
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

/** A condition "department `column` is `orgId` or lies below it", for filters by a department. */
export function inOrgSubtree(column: SQL, orgId: number): SQL {
  return sql`${column} in (
    with recursive sub(id) as (
      select ${orgId}::int
      union
      select o.id from organizations o join sub on o.parent = sub.id
    ) select id from sub)`
}
