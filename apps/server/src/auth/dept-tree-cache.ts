import { sql } from 'drizzle-orm'
import { deptTree, type DeptTree } from '@amg/contract'
import { queryRows, type DbOrTx } from '../db/connection'
import { WatchedCache, type CacheHost } from '../cache/watched-cache'

/** A tree with no department: what a user whose scopes never read the tree holds (access-load.ts). */
export const NO_DEPARTMENTS: DeptTree = { children: new Map(), parents: new Map() }

/**
 * Every department with its parent, in one row: `id:parent` pairs (0 for none; ids start at 1). Read
 * row by row, 10,000 departments took about 100 ms on the embedded database, most of it spent handing
 * each row over; as one text it is a few milliseconds.
 */
async function readDepartments(db: DbOrTx): Promise<DeptTree> {
  const [row] = await queryRows<{ pairs: string | null }>(
    db,
    sql`select string_agg(id::text || ':' || coalesce(parent, 0)::text, ',' order by id) as pairs
        from organizations`,
  )
  const pairs: [number, number | null][] = []
  for (const pair of row?.pairs ? row.pairs.split(',') : []) {
    const colon = pair.indexOf(':')
    const parent = Number(pair.slice(colon + 1))
    pairs.push([Number(pair.slice(0, colon)), parent === 0 ? null : parent])
  }
  return deptTree(pairs)
}

/**
 * The department tree the data scopes are computed on (DESIGN.md §13), kept apart from the users'
 * access so that it is read only when a scope needs it. It follows the departments (the 'org' family:
 * a department added, removed, renamed or moved); an access worked out on a tree holds it, and the
 * authorizer takes such an access as held only while its tree is the one held here.
 */
export class DeptTreeCache extends WatchedCache {
  private kept: DeptTree | undefined

  constructor(
    private readonly db: DbOrTx,
    host: CacheHost,
  ) {
    super(host, 'org')
  }

  protected forget() {
    this.kept = undefined
  }

  /** The tree when it is held here and may answer now. */
  held(): DeptTree | undefined {
    return this.current() ? this.kept : undefined
  }

  /** The tree, read on a miss (inside `tx`, a transaction, without keeping it: it may roll back). */
  async get(tx?: DbOrTx): Promise<DeptTree> {
    const kept = this.held()
    if (kept) return kept
    const token = this.token()
    const tree = await readDepartments(tx ?? this.db)
    if (!tx && this.mayKeep(token)) this.kept = tree
    return tree
  }
}
