import type ExcelJS from 'exceljs'

/** What reading and writing spreadsheets share. */

/**
 * exceljs, loaded the first time a spreadsheet is read or written: loading it is a good part of a
 * server's start, for a feature most starts never use.
 */
let excel: Promise<typeof ExcelJS> | undefined
export const loadExcel = () => (excel ??= import('exceljs').then((m) => m.default))

/** A column's letters as a spreadsheet names it: 0 → A, 26 → AA. */
export const columnLetter = (index: number): string => {
  let n = index + 1
  let name = ''
  while (n > 0) {
    const rem = (n - 1) % 26
    name = String.fromCharCode(65 + rem) + name
    n = Math.floor((n - 1) / 26)
  }
  return name
}
