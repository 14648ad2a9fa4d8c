import { sql } from 'drizzle-orm'
import type { FastifyBaseLogger } from 'fastify'
import { queryRows, type Db, type DbOrTx } from '../db/connection'
import { arrayParam, intArray, textArray } from '../db/sql-arrays'

/** What the recorder asks of the authorizer: the nodes allowing a call, from memory (allowing-nodes.ts). */
export interface NodesFromMemory {
  nodesAllowingFromMemory(
    userId: number,
    service: string,
    method: string,
    path: string,
  ): readonly string[] | undefined
}

/** Rows written per statement when flushing. */
const FLUSH_CHUNK = 1000

/**
 * Usage (DESIGN.md §21): each allowed decision made for a user's own call records (user, node) here,
 * in memory: the last time per pair, no promise and no query in the way of the answer. Once a minute
 * (USAGE_FLUSH_SECONDS) and when the app closes, what was recorded is written to `permission_usage`
 * with one upsert per thousand pairs that keeps the later time, so several instances (and a flush that
 * comes after a newer one) never move a last use backwards. A failed flush keeps its pairs for the
 * next one. Reads merge what this instance has not written yet, so its own recent use shows at once.
 */
export class UsageRecorder {
  private pending = new Map<number, Map<string, number>>()
  private timer: NodeJS.Timeout | undefined
  private flushing: Promise<void> | undefined
  /** off: nothing is recorded (the bench's figure without recording) */
  enabled = true

  constructor(
    private readonly db: Db,
    private readonly nodes: NodesFromMemory,
    private readonly flushSeconds: number,
    private readonly log?: FastifyBaseLogger,
  ) {}

  /** Records an allowed call as use of the nodes that allowed it (once warm: two map lookups). */
  record(userId: number, service: string, method: string, path: string): void {
    if (!this.enabled) return
    const codes = this.nodes.nodesAllowingFromMemory(userId, service, method, path)
    if (!codes || codes.length === 0) return
    const now = Date.now()
    let mine = this.pending.get(userId)
    if (!mine) this.pending.set(userId, (mine = new Map()))
    for (const code of codes) mine.set(code, now)
  }

  start(): void {
    if (this.timer || this.flushSeconds <= 0) return
    this.timer = setInterval(() => void this.flush(), this.flushSeconds * 1000)
    this.timer.unref()
  }

  /** Stops the timer and writes what is left (the app's close). */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer)
    this.timer = undefined
    await this.flush()
  }

  /** Writes what was recorded since the last flush; one flush at a time. */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing
    if (this.pending.size === 0) return
    const taken = this.pending
    this.pending = new Map()
    this.flushing = this.write(taken)
      .catch((err: Error) => {
        this.log?.warn(
          { err: { message: err.message } },
          'permission usage not written, kept for the next flush',
        )
        this.putBack(taken)
      })
      .finally(() => (this.flushing = undefined))
    await this.flushing
  }

  private async write(taken: Map<number, Map<string, number>>) {
    const rows: { userId: number; code: string; at: number }[] = []
    for (const [userId, codes] of taken) for (const [code, at] of codes) rows.push({ userId, code, at })
    for (let i = 0; i < rows.length; i += FLUSH_CHUNK) {
      const chunk = rows.slice(i, i + FLUSH_CHUNK)
      await this.db.execute(sql`insert into permission_usage (user_id, node_code, last_used_at)
        select u, c, to_timestamp(t / 1000.0)
        from unnest(${intArray(chunk.map((r) => r.userId))}, ${textArray(chunk.map((r) => r.code))},
          ${arrayParam(
            chunk.map((r) => r.at),
            'text',
          )}::bigint[]) as x(u, c, t)
        on conflict (user_id, node_code)
        do update set last_used_at = greatest(permission_usage.last_used_at, excluded.last_used_at)`)
    }
  }

  private putBack(taken: Map<number, Map<string, number>>) {
    for (const [userId, codes] of taken) {
      let mine = this.pending.get(userId)
      if (!mine) this.pending.set(userId, (mine = new Map()))
      for (const [code, at] of codes) mine.set(code, Math.max(at, mine.get(code) ?? 0))
    }
  }

  /**
   * Each of these users' last use of each node: what is stored, with what this instance has not
   * written yet. `db`: the request's transaction or the database.
   */
  async lastUses(db: DbOrTx, userIds: readonly number[]): Promise<Map<number, Map<string, Date>>> {
    const byUser = new Map<number, Map<string, Date>>()
    if (userIds.length === 0) return byUser
    const rows = await queryRows<{ user_id: number; node_code: string; last_used_at: Date | string }>(
      db,
      sql`select user_id, node_code, last_used_at from permission_usage where user_id = any(${intArray(userIds)})`,
    )
    const put = (userId: number, code: string, at: Date) => {
      let mine = byUser.get(userId)
      if (!mine) byUser.set(userId, (mine = new Map()))
      const held = mine.get(code)
      if (!held || held < at) mine.set(code, at)
    }
    for (const r of rows) put(Number(r.user_id), r.node_code, new Date(r.last_used_at))
    for (const userId of userIds)
      for (const [code, at] of this.pending.get(userId) ?? []) put(userId, code, new Date(at))
    return byUser
  }
}
