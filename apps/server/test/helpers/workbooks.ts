import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { execFileSync } from 'node:child_process'
import ExcelJS from 'exceljs'
import { expect } from 'vitest'
import type { TestApp } from './app'

/**
 * Workbooks for the import tests (DESIGN.md §15): written by another program than the server's
 * (LibreOffice, converting a CSV), multipart bodies as a browser sends them, a job waited for.
 */

/** Rows → CSV text (every cell quoted only when it needs it: numbers stay numbers for LibreOffice). */
export const csvOf = (rows: readonly (readonly (string | number)[])[]) =>
  rows
    .map((r) =>
      r
        .map((c) => {
          const s = String(c)
          return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s
        })
        .join(','),
    )
    .join('\n') + '\n'

/** LibreOffice's own .xlsx of a CSV (UTF-8, comma-separated): numbers typed as numbers. */
export function sofficeXlsx(csv: string): Buffer {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'amg-soffice-'))
  try {
    const source = path.join(dir, 'users.csv')
    fs.writeFileSync(source, csv)
    execFileSync(
      'soffice',
      [
        `-env:UserInstallation=file://${dir}/profile`,
        '--headless',
        '--infilter=CSV:44,34,76,1',
        '--convert-to',
        'xlsx',
        '--outdir',
        dir,
        source,
      ],
      { stdio: 'ignore', timeout: 120_000 },
    )
    return fs.readFileSync(path.join(dir, 'users.xlsx'))
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

/** The first sheet of a workbook as rows of text (row number → cells). */
export async function sheetRows(body: Buffer): Promise<Map<number, string[]>> {
  const workbook = new ExcelJS.Workbook()
  await workbook.xlsx.load(body as never)
  const rows = new Map<number, string[]>()
  workbook.worksheets[0].eachRow((row, n) => {
    const cells: string[] = []
    row.eachCell({ includeEmpty: true }, (cell, col) => (cells[col - 1] = cell.text))
    rows.set(
      n,
      Array.from(cells, (c) => c ?? ''),
    )
  })
  return rows
}

/** A multipart body with `file` and the other fields. */
export async function importForm(file: Buffer, fileName: string, fields: Record<string, string> = {}) {
  const fd = new FormData()
  for (const [k, v] of Object.entries(fields)) fd.append(k, v)
  fd.append('file', new Blob([file as Uint8Array<ArrayBuffer>]), fileName)
  const res = new Response(fd)
  return {
    body: Buffer.from(await res.arrayBuffer()),
    headers: { 'content-type': res.headers.get('content-type')! },
  }
}

export interface JobState {
  status: string
  total: number
  done: number
  inserted: number
  updated: number
  unchanged: number
  failed: number
}

/** Starts an import and waits for its job to finish; answers the job and its result workbook's rows. */
export async function runImport(
  t: TestApp,
  file: Buffer,
  opts: {
    token?: string
    mode?: string
    dryRun?: boolean
    fileName?: string
    path?: string
    /** sent only when given (the option's default is the server's) */
    allowSuperAdmin?: boolean
  } = {},
): Promise<{ job: JobState; result: Map<number, string[]> }> {
  const token = opts.token ?? t.adminToken
  const { body, headers } = await importForm(file, opts.fileName ?? 'users.xlsx', {
    mode: opts.mode ?? 'insert',
    dryRun: String(opts.dryRun ?? false),
    ...(opts.allowSuperAdmin === undefined ? {} : { allowSuperAdmin: String(opts.allowSuperAdmin) }),
  })
  const started = await t.call('POST', opts.path ?? '/api/user/import', { token, body, headers })
  expect(started.status, started.body.msg).toBe(200)
  const jobId = started.body.data.jobId as string
  for (;;) {
    const res = await t.call<JobState>('GET', '/api/import/job', { token, query: { jobId } })
    expect(res.status, res.body.msg).toBe(200)
    if (res.body.data.status !== 'running') {
      const result = await t.app.inject({
        method: 'GET',
        url: `/api/import/result?jobId=${jobId}`,
        headers: { 'x-auth-token': token },
      })
      expect(result.statusCode).toBe(200)
      return { job: res.body.data, result: await sheetRows(result.rawPayload) }
    }
    await new Promise((r) => setTimeout(r, 50))
  }
}
