import { ilike, or, type Column, type SQL } from 'drizzle-orm'

/** `%text%` for ILIKE, with the text's own wildcards (`%`, `_`, `\`) taken literally. */
export const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`

/** `text%` for LIKE (a prefix, which a `text_pattern_ops` index serves), wildcards taken literally. */
export const prefixPattern = (text: string) => `${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`

/** A list's keyword filter: rows where any of the columns contains the keyword; none for a blank one. */
export function keywordIn(keyword: string | null | undefined, ...columns: Column[]): SQL | undefined {
  const text = keyword?.trim()
  return text ? or(...columns.map((c) => ilike(c, containsPattern(text)))) : undefined
}
