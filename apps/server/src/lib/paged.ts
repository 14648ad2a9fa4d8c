/**
 * The page a list call asks for: 10 rows from the first page unless it says otherwise, SPEC.md's
 * lower-case spellings accepted too.
 */
export function paging(q: { pagenum?: number; pagesize?: number; pageNum?: number; pageSize?: number }) {
  const pageNum = q.pageNum ?? q.pagenum ?? 1
  const pageSize = q.pageSize ?? q.pagesize ?? 10
  return { pageNum, pageSize, offset: Math.min((pageNum - 1) * pageSize, Number.MAX_SAFE_INTEGER) }
}

/**
 * One page of a list with the total it is part of, both read at once: `rows` reads the page (its
 * limit and offset), `counted` the one-row count of the whole list.
 */
export async function pagedList<T>(
  page: { pageSize: number; offset: number },
  rows: (limit: number, offset: number) => PromiseLike<T[]>,
  counted: () => PromiseLike<{ total: number }[]>,
): Promise<{ list: T[]; total: number }> {
  const [list, [{ total }]] = await Promise.all([rows(page.pageSize, page.offset), counted()])
  return { list, total: Number(total) }
}
