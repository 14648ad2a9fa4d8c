import { and, asc, count, desc, sql, type SQL } from 'drizzle-orm'
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core'
import { EXACT_TOTAL_LIMIT } from '@amg/contract'
import { queryRows, type DbOrTx } from '../db/connection'

/** Where what is read of a list is kept until a row of it changes: a list cache (cache/versioned-cache.ts). */
export interface ListMemory {
  /** taken before a read, handed to `store` with what it read */
  token(): number
  peek<T>(key: string): T | undefined
  store(token: number, key: string, value: unknown): void
}

/** A table listed newest first: create_time descending, then id descending (a total order). */
export interface NewestFirstSource {
  table: PgTable
  id: PgColumn
  createTime: PgColumn
}

export interface NewestFirstList {
  source: NewestFirstSource
  where: SQL | undefined
  /**
   * The same condition in the form to check row by row while a large list's page is read along the
   * (create_time, id) index (absent: `where`); `where` serves the passes that read every match.
   */
  walk?: SQL | undefined
  /** names the list and its filters: what is read of it is kept under this key */
  key: string
}

export interface IdPage {
  ids: number[]
  /** exact: the answer is the plain `{ list, total }` */
  total: number
}

/** Rows between two bookmarks of a large list: no page skips more than this many. */
const BOOKMARK_EVERY = 1000

/** What is kept of one list (one filter) until a row of it changes. */
interface Kept {
  /** how many rows match, counted */
  n: number
  /** every match's id in the list's order, when there are at most EXACT_TOTAL_LIMIT */
  ids?: number[]
  /** a larger list's sort key (create_time as text, id) at every BOOKMARK_EVERY-th row */
  bookmarks?: [string, number][]
}

/**
 * The ids of one page of a list sorted newest first, and the list's total (DESIGN.md §12). Only ids
 * are read in the list's order; the caller then reads just the page's rows by id.
 *
 * - Up to EXACT_TOTAL_LIMIT matches, one pass reads them all (ids only, in order): the total is exact
 *   and every page of that list or filter is a slice of them. A filter matching few rows is thus read
 *   once, not once per page.
 * - Above it, the matches are counted once (the total is always exact). The first BOOKMARK_EVERY rows
 *   are paged from the newest end of the (create_time, id) index; a page among the last BOOKMARK_EVERY
 *   rows is read from the other end, oldest first, and reversed, so the last page costs what the first
 *   does. A page in between starts at a bookmark: one ordered pass notes the sort key of every
 *   BOOKMARK_EVERY-th row, so the middle of 100,000 rows skips fewer than BOOKMARK_EVERY as well.
 * - What was read is kept in `cache` until a row of the list changes.
 */
export async function newestFirstPage(
  db: DbOrTx,
  cache: ListMemory,
  list: NewestFirstList,
  page: { offset: number; limit: number },
): Promise<IdPage> {
  const { offset, limit } = page
  const token = cache.token()
  let kept = cache.peek<Kept>(list.key) ?? (await firstPass(db, list))
  if (kept.ids) {
    cache.store(token, list.key, kept)
    return { ids: kept.ids.slice(offset, offset + limit), total: kept.n }
  }
  if (offset >= BOOKMARK_EVERY && kept.n - offset - limit >= BOOKMARK_EVERY && !kept.bookmarks)
    kept = { ...kept, bookmarks: await bookmarkPass(db, list) }
  cache.store(token, list.key, kept)
  const ids = await pageIds(db, list, page, kept)
  return { ids, total: kept.n }
}

/** Every match's id in order when there are at most EXACT_TOTAL_LIMIT; else their exact count. */
async function firstPass(db: DbOrTx, list: NewestFirstList): Promise<Kept> {
  const { table, id, createTime } = list.source
  // the matches first, however the planner best finds them (a trigram index, say); ordered only when
  // they are all there is
  const [row] = await queryRows<{ n: number | string; ids: (number | string)[] | null }>(
    db,
    sql`with matches as (
        select ${id} as id, ${createTime} as t from ${table} where ${list.where ?? sql`true`}
        limit ${EXACT_TOTAL_LIMIT + 1}
      )
      select (select count(*) from matches) as n,
        (select array_agg(id order by t desc, id desc) from matches
          where (select count(*) from matches) <= ${EXACT_TOTAL_LIMIT}) as ids`,
  )
  const n = Number(row?.n ?? 0)
  if (n <= EXACT_TOTAL_LIMIT) return { n, ids: (row?.ids ?? []).map(Number) }
  // counted once for this version of the list (kept until a row of it changes): a total shown is exact
  return { n: await countAll(db, list) }
}

async function countAll(db: DbOrTx, list: NewestFirstList): Promise<number> {
  const [row] = await db.select({ n: count() }).from(list.source.table).where(list.where)
  return Number(row?.n ?? 0)
}

/** One ordered pass over every match, noting the sort key of every BOOKMARK_EVERY-th row. */
async function bookmarkPass(db: DbOrTx, list: NewestFirstList): Promise<[string, number][]> {
  const { table, id, createTime } = list.source
  // create_time as text (a JavaScript Date would drop its microseconds), made for the bookmarks only
  const rows = await queryRows<{ t: string; id: number | string }>(
    db,
    sql`select t::text as t, id from (
        select ${createTime} as t, ${id} as id,
          row_number() over (order by ${createTime} desc, ${id} desc) - 1 as rn
        from ${table} where ${list.where ?? sql`true`}
      ) ranked
      where rn % ${BOOKMARK_EVERY} = 0 order by rn`,
  )
  return rows.map((r) => [r.t, Number(r.id)])
}

async function pageIds(
  db: DbOrTx,
  list: NewestFirstList,
  page: { offset: number; limit: number },
  kept: Kept,
): Promise<number[]> {
  const { table, id, createTime } = list.source
  const where = 'walk' in list ? list.walk : list.where
  const select = (from?: SQL) => db.select({ id }).from(table).where(and(where, from))
  const end = Math.min(page.offset + page.limit, kept.n)
  if (page.offset >= end) return []
  if (page.offset >= BOOKMARK_EVERY && kept.n - end < BOOKMARK_EVERY) {
    // near the end: the same rows, read oldest first from the other end
    const rows = await select()
      .orderBy(asc(createTime), asc(id))
      .limit(end - page.offset)
      .offset(kept.n - end)
    return rows.map((r) => Number(r.id)).reverse()
  }
  const mark =
    page.offset >= BOOKMARK_EVERY ? kept.bookmarks?.[Math.floor(page.offset / BOOKMARK_EVERY)] : undefined
  // from the bookmark (that row included) onwards; without one, from the newest row
  const rows = await select(mark && sql`(${createTime}, ${id}) <= (${mark[0]}::timestamptz, ${mark[1]})`)
    .orderBy(desc(createTime), desc(id))
    .limit(page.limit)
    .offset(mark ? page.offset % BOOKMARK_EVERY : page.offset)
  return rows.map((r) => Number(r.id))
}

/** `rows` in the order of `ids` (a read by id answers in any order). */
export function inIdOrder<T extends { id: number }>(rows: T[], ids: number[]): T[] {
  const byId = new Map(rows.map((r) => [r.id, r]))
  return ids.flatMap((id) => byId.get(id) ?? [])
}
