import { isIP } from 'node:net'
import { eq } from 'drizzle-orm'
import { anonymousRefusalsMsg } from '@amg/contract'
import type { Db } from '../db/connection'
import { operationLogs } from '../db/audit-schema'

/**
 * Writes refused with 401 — no valid session — cost a stranger nothing, and one operation-log insert
 * each let a single client fill the log and slow every administrator's calls (DESIGN.md §11). They
 * are aggregated instead: at most one row per client address and minute. The row is written at the
 * minute's first refusal, so the event shows at once; when the minute is over (or the server stops)
 * its msg is brought up to date with how many there were (`anonymousRefusalsMsg`). It describes that
 * first request, with the user agent and path cut to `ANONYMOUS_FIELD_CAP` characters.
 *
 * An IPv6 client usually holds a whole /64 network, so IPv6 addresses are counted per /64. Past
 * `MAX_SOURCES_PER_MINUTE` sources in one minute the rest share one row with the address `*`, so that
 * rotating addresses cannot bring the flood back. Counted in memory, per server instance.
 */
export const ANONYMOUS_FIELD_CAP = 128
export const MAX_SOURCES_PER_MINUTE = 1000
const MINUTE_MS = 60_000
const OVERFLOW_SOURCE = '*'

/** What the aggregated row says about the minute's first refusal. */
export interface AnonymousRefusal {
  userAgent: string | null
  method: string
  path: string
  summary: string | null
  resourceType: string | null
  status: number
  msg: string
}

interface Bucket {
  minute: number
  count: number
  msg: string
  /** the row's id once inserted (null if the insert failed) */
  row: Promise<number | null>
  /** the count the row says */
  written: number
}

export class AnonymousRefusals {
  private readonly buckets = new Map<string, Bucket>()
  private readonly timer: NodeJS.Timeout

  constructor(
    private readonly db: Db,
    private readonly onError: (err: Error) => void,
  ) {
    // closed minutes get their counts without waiting for the same source to come back
    this.timer = setInterval(() => void this.flush(false), MINUTE_MS / 2)
    this.timer.unref()
  }

  /**
   * Counts one refusal from `ip`. The first of a source's minute writes its row (`describe` is called
   * only then) and answers a promise to wait for; the others only count, and answer nothing.
   */
  record(ip: string, describe: () => AnonymousRefusal, now = Date.now()): Promise<void> | undefined {
    const minute = Math.floor(now / MINUTE_MS)
    let source = sourceOf(ip)
    let bucket = this.buckets.get(source)
    if (!bucket && this.buckets.size >= MAX_SOURCES_PER_MINUTE) {
      source = OVERFLOW_SOURCE
      bucket = this.buckets.get(source)
    }
    if (bucket && bucket.minute === minute) {
      bucket.count += 1
      return undefined
    }
    // the source's earlier minute is over: its count goes into its row before the new row is written
    const before = bucket ? this.settle(bucket) : Promise.resolve()
    const first = describe()
    const fresh: Bucket = { minute, count: 1, msg: first.msg, written: 1, row: Promise.resolve(null) }
    fresh.row = before.then(() => this.insert(source, first))
    this.buckets.set(source, fresh)
    return fresh.row.then(() => undefined)
  }

  /** Writes the counts of the minutes that are over, or of all (when the server stops). */
  async flush(all: boolean, now = Date.now()): Promise<void> {
    const minute = Math.floor(now / MINUTE_MS)
    const settling: Promise<void>[] = []
    for (const [source, bucket] of this.buckets) {
      if (!all && bucket.minute >= minute) continue
      this.buckets.delete(source)
      settling.push(this.settle(bucket))
    }
    await Promise.all(settling)
  }

  async close(): Promise<void> {
    clearInterval(this.timer)
    await this.flush(true)
  }

  private async insert(source: string, first: AnonymousRefusal): Promise<number | null> {
    try {
      const [row] = await this.db
        .insert(operationLogs)
        .values({
          operatorId: null,
          operatorName: null,
          ip: source,
          userAgent: first.userAgent?.slice(0, ANONYMOUS_FIELD_CAP) || null,
          method: first.method.slice(0, 10),
          path: first.path.slice(0, ANONYMOUS_FIELD_CAP),
          summary: first.summary,
          resourceType: first.resourceType,
          resourceId: null,
          result: 'denied',
          status: first.status,
          msg: anonymousRefusalsMsg(first.msg, 1),
        })
        .returning({ id: operationLogs.id })
      return row.id
    } catch (err) {
      this.onError(err as Error)
      return null
    }
  }

  private async settle(bucket: Bucket): Promise<void> {
    const id = await bucket.row
    const count = bucket.count
    if (id === null || count === bucket.written) return
    bucket.written = count
    try {
      await this.db
        .update(operationLogs)
        .set({ msg: anonymousRefusalsMsg(bucket.msg, count) })
        .where(eq(operationLogs.id, id))
    } catch (err) {
      this.onError(err as Error)
    }
  }
}

/** The source a refusal is counted for: an IPv4 address, or an IPv6 address's /64 network. */
export function sourceOf(ip: string): string {
  const bare = ip.split('%')[0]
  if (isIP(bare) !== 6) return bare.slice(0, 64)
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(bare)
  if (mapped) return mapped[1]
  const [head, tail] = bare.split('::')
  const groupsOf = (part: string | undefined) => (part ? part.split(':') : [])
  const left = groupsOf(head)
  const right = groupsOf(tail)
  // a dotted IPv4 ending stands for two groups
  const width = (groups: string[]) => groups.reduce((n, g) => n + (g.includes('.') ? 2 : 1), 0)
  const missing = tail === undefined ? 0 : 8 - width(left) - width(right)
  const groups = [...left, ...Array<string>(missing).fill('0'), ...right]
  const network = groups.slice(0, 4).map((g) => parseInt(g, 16).toString(16))
  return `${network.join(':')}::/64`
}
