import pg from 'pg'

/** What the bench's report needs around the figures: the PostgreSQL to measure on, Markdown tables. */

const LOCAL_PG = 'postgres://postgres@127.0.0.1:5432/postgres'

export const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`

/** DATABASE_URL, else a server at 127.0.0.1:5432, if one answers; undefined: PostgreSQL figures are skipped. */
export async function postgresUrl(): Promise<string | undefined> {
  const url = process.env.DATABASE_URL ?? LOCAL_PG
  const client = new pg.Client({ connectionString: url })
  try {
    await client.connect()
    return url
  } catch {
    return undefined
  } finally {
    await client.end().catch(() => {})
  }
}

export const table = (head: string[], rows: (string | number)[][]) =>
  [
    `| ${head.join(' | ')} |`,
    `| ${head.map(() => '---').join(' | ')} |`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n')

/** Runs `work` with DATABASE_URL set to `url` (or unset), for the measuring scripts that read it. */
export async function withDatabaseUrl<T>(url: string | undefined, work: () => Promise<T>): Promise<T> {
  const before = process.env.DATABASE_URL
  if (url) process.env.DATABASE_URL = url
  else delete process.env.DATABASE_URL
  try {
    return await work()
  } finally {
    if (before === undefined) delete process.env.DATABASE_URL
    else process.env.DATABASE_URL = before
  }
}
