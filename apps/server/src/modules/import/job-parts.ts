import { MSG, importDuplicateRows, type ImportJob, type ImportMode } from '@amg/contract'
import type { SheetRow, SheetRows } from '../../lib/sheet-rows'

/** What an import job is made of, and what its rows become: the same wherever the job is kept. */

export type JobKind = ImportJob['kind']
export type RowOutcome = 'inserted' | 'updated' | 'unchanged'

/**
 * One row's result: its outcome, or the reason it failed; or, for a row the job never wrote (its
 * batch lost its database connection, or came after one that did), why it was not processed.
 */
export type RowResult = { ok: RowOutcome } | { failed: string } | { notProcessed: string }

export interface Job extends ImportJob {
  id: string
  ownerId: number
  /** the file's name as sent (cleaned: upload.ts), which the job's log rows name */
  fileName: string
  header: readonly string[]
  rows: SheetRows
  /** per row: its outcome, or the reason it failed */
  results: RowResult[]
  finishedAt: number | null
}

/** A job's counts by outcome. */
export interface Counts {
  inserted: number
  updated: number
  unchanged: number
  failed: number
}

export interface JobStart {
  kind: JobKind
  mode: ImportMode
  dryRun: boolean
  ownerId: number
  fileName: string
  header: readonly string[]
  rows: SheetRows
  /** the key of a row whose duplicates within the file fail both rows (null: no key) */
  keyOf: (row: SheetRow) => string | null
  /** the name of the key in the duplicate message ('登录名', '部门全称') */
  keyName: string
}

/** A job about to run: nothing done yet, no row decided. */
export const newJob = (start: Omit<JobStart, 'keyOf' | 'keyName'> & { id: string }): Job => ({
  id: start.id,
  kind: start.kind,
  mode: start.mode,
  dryRun: start.dryRun,
  ownerId: start.ownerId,
  status: 'running',
  total: start.rows.length,
  done: 0,
  inserted: 0,
  updated: 0,
  unchanged: 0,
  failed: 0,
  msg: null,
  header: start.header,
  fileName: start.fileName,
  rows: start.rows,
  results: new Array(start.rows.length),
  finishedAt: null,
})

export const LOG_SUMMARY: Record<JobKind, string> = {
  user: '导入用户',
  org: '导入部门',
  directory: '目录同步',
}

/**
 * The operation log's name for starting an import: a dry run (仅校验) changes nothing and is told
 * apart from a real one (docs/decisions.md "Imports in the operation log").
 */
export const importLogSummary = (kind: JobKind, dryRun: boolean) =>
  dryRun ? `${LOG_SUMMARY[kind]}（仅校验）` : LOG_SUMMARY[kind]

/** The file an import read, as its log rows name it. */
export const fileText = (job: Pick<Job, 'fileName'>) => `文件“${job.fileName || '未命名'}”`

/** The message of the row that starts an import: the file and how many rows it holds. */
export const importStartMsg = (job: Pick<Job, 'fileName' | 'total' | 'dryRun'>) =>
  `${fileText(job)}，共 ${job.total} 行${job.dryRun ? '，仅校验，不写入' : ''}`

/**
 * A key used twice in the file fails both rows, each naming the other's row number (the
 * spreadsheet's own numbers): which of the two was meant cannot be told.
 */
export function markDuplicates(job: Job, keyOf: (row: SheetRow) => string | null, keyName: string) {
  const first = new Map<string, { index: number; rowNumber: number }>()
  let index = 0
  for (const row of job.rows) {
    const i = index++
    const key = keyOf(row)
    if (key === null || key === '') continue
    const earlier = first.get(key)
    if (earlier === undefined) {
      first.set(key, { index: i, rowNumber: row.rowNumber })
      continue
    }
    const message = importDuplicateRows(keyName, key, earlier.rowNumber, row.rowNumber)
    job.results[earlier.index] ??= { failed: message }
    job.results[i] = { failed: message }
  }
}

/** Results' counts by outcome. */
export function countOf(results: readonly RowResult[]): Counts {
  const counts = { inserted: 0, updated: 0, unchanged: 0, failed: 0 }
  for (const result of results)
    if ('ok' in result) counts[result.ok]++
    else counts.failed++
  return counts
}

/** The job as GET /import/job answers it. */
export const jobView = (job: ImportJob): ImportJob => ({
  status: job.status,
  kind: job.kind,
  mode: job.mode,
  dryRun: job.dryRun,
  total: job.total,
  done: job.done,
  inserted: job.inserted,
  updated: job.updated,
  unchanged: job.unchanged,
  failed: job.failed,
  msg: job.msg,
  // a directory sync's diff (DESIGN.md §22); an import has none
  ...(job.diff !== undefined ? { diff: job.diff } : {}),
})

const RESULT_TEXT = {
  inserted: MSG.importRowInserted,
  updated: MSG.importRowUpdated,
  unchanged: MSG.importRowUnchanged,
} as const

/** The result workbook's header: the file's own, then 结果 and 原因. */
export const resultHeader = (job: Pick<Job, 'header'>) => [...job.header, '结果', '原因']

/** The rows as sent, each with 结果 and 原因 (DESIGN.md §15). */
export function* resultRows(job: Job): Generator<string[]> {
  const width = job.header.length
  let next = 2
  let i = 0
  for (const row of job.rows) {
    // blank rows stay where they were: the result's row numbers are the file's
    for (; next < row.rowNumber; next++) yield []
    next++
    const cells = Array.from({ length: width }, (_, c) => row.cells[c] ?? '')
    const result = job.results[i++]
    if (!result) yield [...cells, '', '']
    else if ('ok' in result) yield [...cells, RESULT_TEXT[result.ok], '']
    else if ('notProcessed' in result) yield [...cells, MSG.importRowNotProcessed, result.notProcessed]
    else yield [...cells, MSG.importRowFailed, result.failed]
  }
}
