/** `%text%` for ILIKE, with the text's own wildcards (`%`, `_`, `\`) taken literally. */
export const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`

/** `text%` for LIKE (a prefix, which a `text_pattern_ops` index serves), wildcards taken literally. */
export const prefixPattern = (text: string) => `${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
