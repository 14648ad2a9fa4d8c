/**
 * Row merging of the position table (SPEC.md §2): adjacent rows with the identical department name
 * share one cell. Answers, for each row, the rowSpan of its department cell: the first row of a run
 * of equal names spans the whole run, the following rows of that run answer 0 (their cell is hidden).
 */
export function mergeRowSpans(names: readonly (string | null | undefined)[]): number[] {
  const spans = new Array<number>(names.length).fill(0)
  let start = 0
  for (let i = 1; i <= names.length; i++) {
    if (i === names.length || names[i] !== names[start]) {
      spans[start] = i - start
      start = i
    }
  }
  return spans
}
