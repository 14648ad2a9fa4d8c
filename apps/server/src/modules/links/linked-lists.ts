import { and, asc, count, eq, getTableColumns, ilike, sql, type SQL } from 'drizzle-orm'
import type { PgColumn, SelectedFields } from 'drizzle-orm/pg-core'
import type { SelectResultFields } from 'drizzle-orm/query-builders/select.types'
import type { Db, DbOrTx } from '../../db/connection'
import { roles, users } from '../../db/schema'
import { linkBetween, RECORDS } from '../../db/tables'
import { containsPattern } from '../../lib/like'
import { requireExisting } from './existing'
import { paging } from '../../lib/paged'
import { linkMayExpire, type LinkEntity } from './service'

type PageArgs = Parameters<typeof paging>[0]

/** One owner's links to one kind of record, as the user, user-group and position screens list them. */
export interface LinkedPageQuery<F extends SelectedFields> {
  owner: LinkEntity
  ownerId: number
  target: LinkEntity
  /** the linked record's fields each row answers, in the answer's order */
  fields: F
  /** keeps the linked records whose name contains it, case-insensitively; blank keeps all */
  nameContains?: string | null
  /** further conditions on the linked records */
  where?: SQL
  /** the call's page arguments */
  page: PageArgs
  /**
   * data scope (DESIGN.md §13): only linked records meeting it are listed, and the answer says how many
   * linked records it leaves out (`outsideCount`); undefined: no restriction
   */
  visible?: (id: PgColumn) => SQL | undefined
}

/**
 * A page of the records linked to one owner, in id order, with how many there are in all; 404 (in the
 * owner's words: '用户组不存在') when the owner does not exist.
 */
export async function linkedPage<F extends SelectedFields>(db: Db, q: LinkedPageQuery<F>) {
  await requireExisting(db, q.owner, [q.ownerId])
  const { pageSize, offset } = paging(q.page)
  const link = linkBetween(q.owner, q.target)
  const target = RECORDS[q.target]
  const name = q.nameContains?.trim()
  const where = and(
    eq(link.ownerColumn, q.ownerId),
    name && target.nameColumn ? ilike(target.nameColumn, containsPattern(name)) : undefined,
    q.where,
    q.visible?.(target.keyColumn),
  )
  const on = eq(target.keyColumn, link.targetColumn)
  // a user's link to a role, group or position says until when it holds (DESIGN.md §20)
  const expiry = linkMayExpire(q.owner, q.target) ? getTableColumns(link.table).expiresAt : undefined
  const fields: SelectedFields = expiry ? { ...q.fields, linkExpiresAt: expiry } : q.fields
  const visibleLink = q.visible?.(link.targetColumn)
  const outside = visibleLink
    ? db
        .select({ n: count() })
        .from(link.table)
        .where(and(eq(link.ownerColumn, q.ownerId), sql`not ${visibleLink}`))
    : undefined
  const [list, [{ total }], outsideRows] = await Promise.all([
    db
      .select(fields)
      .from(link.table)
      .innerJoin(target.table, on)
      .where(where)
      .orderBy(asc(target.keyColumn))
      .limit(pageSize)
      .offset(offset),
    db.select({ total: count() }).from(link.table).innerJoin(target.table, on).where(where),
    outside,
  ])
  // the builder cannot follow a generic selection through a join; the rows are exactly `fields`
  return {
    list: list.map(({ linkExpiresAt, ...row }) =>
      expiry ? { ...row, expiresAt: linkExpiresAt ? (linkExpiresAt as Date).toISOString() : null } : row,
    ) as (SelectResultFields<F> & { expiresAt?: string | null })[],
    total: Number(total),
    ...(outsideRows ? { outsideCount: Number(outsideRows[0].n) } : {}),
  }
}

/** What the 关联用户 and 关联角色 tabs of a group or a position show of each record (RelUserRow, RelRoleRow). */
const TAB_FIELDS = {
  user: { id: users.id, nickName: users.nickName, realName: users.realName, status: users.status },
  role: { id: roles.id, roleName: roles.roleName, type: roles.type, status: roles.status },
}

/** A page of a group's or a position's 关联用户 or 关联角色 tab. */
export const linkedTab = <T extends keyof typeof TAB_FIELDS>(
  db: Db,
  q: Omit<LinkedPageQuery<(typeof TAB_FIELDS)[T]>, 'fields' | 'target'> & { target: T },
) => linkedPage(db, { ...q, fields: TAB_FIELDS[q.target] })

/** The ids of every record linked to one owner, ascending. */
export async function linkedIds(db: DbOrTx, owner: LinkEntity, ownerId: number, target: LinkEntity) {
  const link = linkBetween(owner, target)
  const rows = await db
    .select({ id: link.targetColumn })
    .from(link.table)
    .where(eq(link.ownerColumn, ownerId))
    .orderBy(asc(link.targetColumn))
  return rows.map((r) => r.id as number)
}
