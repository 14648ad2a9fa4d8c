import { inArray } from 'drizzle-orm'
import { scopeLineText, scopeRoots, type DataScope, type DeptTree } from '@amg/contract'
import type { DbOrTx } from '../db/connection'
import { organizations } from '../db/schema'

/**
 * A data scope in words (DESIGN.md §13): its top departments by name, each marked （含下级） when all
 * below it is in the scope too, as the 管理范围 line and 权限分析 show it. Named here, from the
 * database, so a reader sees names even of departments their own console's tree does not hold.
 */
export async function namedScopeRoots(
  db: DbOrTx,
  depts: DeptTree,
  scope: DataScope,
): Promise<{ id: number; name: string; withSubtree: boolean }[]> {
  const roots = scopeRoots(scope, depts)
  if (!roots.length) return []
  const names = await db
    .select({ id: organizations.id, name: organizations.organizationName })
    .from(organizations)
    .where(
      inArray(
        organizations.id,
        roots.map((r) => r.id),
      ),
    )
  const nameOf = new Map(names.map((n) => [n.id, n.name]))
  return roots.flatMap((r) => {
    const name = nameOf.get(r.id)
    return name === undefined ? [] : [{ ...r, name }]
  })
}

/** 全部数据, or the scope's tops (研发中心（含下级）、本人), or 无. */
export async function scopeInWords(db: DbOrTx, depts: DeptTree, scope: DataScope): Promise<string> {
  if (scope.all) return '全部数据'
  return scopeLineText(await namedScopeRoots(db, depts, scope), scope.self)
}
