/** `%text%` for ILIKE, with the text's own wildcards (`%`, `_`, `\`) taken literally. */
export const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
