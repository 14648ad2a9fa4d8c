/**
 * Names compare without letter case for uniqueness and sign-in (DESIGN.md §11: `Admin` beside
 * `admin` is a duplicate). A name's folded form maps each letter to one case-free letter, one
 * character for one, so the database can make the same mapping with `translate()`: its `amg_name_fold`
 * (migration 0024) is this table, and a test holds the two equal on PGlite and PostgreSQL. The
 * database's own `lower()` is not used: it follows the database's locale (ASCII only under `C`,
 * `I` → `ı` under a Turkish one), so it would differ between installations.
 */

/** Case-mapped letters lie below this (the last, Adlam, ends at U+1E943); a test checks it. */
export const CASED_LIMIT = 0x20000

/**
 * One letter's case-free form: the lower case of its upper case when each is one character (so `Σ`,
 * `σ` and the final `ς` are all `σ`, `ẞ` is `ß`, `ǅ` is `ǆ`), else its own lower case when that is
 * one character, else the letter itself (`İ`, whose lower case is two characters, stays apart).
 */
function letterFold(letter: string): string {
  const single = (text: string) => [...text].length === 1
  const upper = letter.toUpperCase()
  if (single(upper) && single(upper.toLowerCase())) return upper.toLowerCase()
  const lower = letter.toLowerCase()
  return single(lower) ? lower : letter
}

let table: Map<string, string> | undefined

/** Every letter whose folded form differs from it, with that form: the table `amg_name_fold` holds. */
export function caseFoldTable(): ReadonlyMap<string, string> {
  if (!table) {
    table = new Map()
    for (let cp = 0; cp < CASED_LIMIT; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue
      const letter = String.fromCodePoint(cp)
      const folded = letterFold(letter)
      if (folded !== letter) table.set(letter, folded)
    }
  }
  return table
}

/** The form two names are compared in: equal folded forms are the same name. */
export function foldName(name: string): string {
  const folds = caseFoldTable()
  let out = ''
  for (const letter of name) out += folds.get(letter) ?? letter
  return out
}
