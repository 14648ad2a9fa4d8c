/**
 * Prints the database's `amg_name_fold(text)`: the contract's case-fold table (name-fold.ts) in SQL,
 * for the migration that (re)creates it:
 *
 *   npx tsx apps/server/scripts/name-fold-sql.ts
 *
 * A `translate()` costs the name's length times its table's, so the table is cut into runs of
 * letters close in code point, each with the range that gates it: a name is translated only by the
 * runs it has letters of. ASCII, most names, is `lower()` under the "C" collation, which folds exactly
 * A–Z whatever the database's locale; a name with no other cased letter (Chinese) stops there.
 */
import { caseFoldTable } from '@amg/contract'

/** letters per run at most; a gap wider than GAP code points (another script's block) starts a new run */
const RUN = 128
const GAP = 256
const pairs = [...caseFoldTable()].filter(([letter]) => letter.codePointAt(0)! > 0x7f)
const quote = (text: string) => `'${text.replace(/'/g, "''")}'`
const range = (run: (typeof pairs)[number][]) => `[${run[0][0]}-${run[run.length - 1][0]}]`
const runs: (typeof pairs)[] = []
for (const pair of pairs) {
  const run = runs[runs.length - 1]
  const last = run?.[run.length - 1][0].codePointAt(0)
  if (!run || run.length === RUN || pair[0].codePointAt(0)! - last! > GAP) runs.push([pair])
  else run.push(pair)
}
const steps = runs.map(
  (run) =>
    `  IF folded COLLATE "C" ~ ${quote(range(run))} THEN\n    folded := translate(folded, ${quote(run.map(([l]) => l).join(''))}, ${quote(run.map(([, f]) => f).join(''))});\n  END IF;`,
)
console.log(`CREATE FUNCTION amg_name_fold(name text) RETURNS text LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
  folded text := lower(name COLLATE "C");
BEGIN
  IF octet_length(name) = char_length(name) OR name COLLATE "C" !~ ${quote(`[${runs.map((run) => range(run).slice(1, -1)).join('')}]`)} THEN
    RETURN folded;
  END IF;
${steps.join('\n')}
  RETURN folded;
END
$$;`)
