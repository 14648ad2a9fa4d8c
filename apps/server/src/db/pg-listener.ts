import { randomUUID } from 'node:crypto'
import pg from 'pg'
import { EVENTS_CHANNEL } from './open-options'

/** How long connecting the listener may take before it counts as failed. */
const CONNECT_TIMEOUT_MS = 5_000

export interface ListenerOptions {
  /** while the listener is lost, how long caches keep answering what they hold before it is all dropped */
  outageGraceMs: number
  /** how long after a loss a new listener is connected */
  retryMs: number
}

/**
 * The PostgreSQL session that LISTENs for the changes every instance announces (NOTIFY), and hands
 * each to `tellAll`. A LISTEN needs a session of its own (not a pooled one). When it is lost (a
 * restart, a failover, a network reset, its backend terminated) a new one is connected after
 * `retryMs`, again and again until one holds; once back, '*' tells every cache that whatever changed
 * meanwhile went unheard.
 *
 * While the listener is lost, changes made elsewhere go unheard. Caches keep nothing new meanwhile
 * (`listening` is false), and before answering from what they hold they look at the change counters
 * (cache/change-watch.ts); when even that look fails (the database away), what they hold keeps
 * answering for a grace period, so signed-in users and gateways are not refused during a restart or
 * failover of a few seconds. Everything is dropped once the listener is back, or when the grace runs
 * out first.
 */
export class PgListener {
  private listener: pg.Client | undefined
  private listening = false
  private closed = false
  private reconnectPending = false
  private graceTimer: NodeJS.Timeout | undefined
  private readonly barriers = new Map<string, () => void>()

  constructor(
    private readonly url: string,
    private readonly tellAll: (payload: string) => void,
    private readonly options: ListenerOptions,
  ) {}

  /** Connects the first listener (a failure here fails the start). */
  start(): Promise<void> {
    return this.listen()
  }

  get hearsEveryChange(): boolean {
    return this.listening
  }

  /** A notification reached this instance: a barrier of `heardSoFar` resolves on its own mark. */
  heard(payload: string) {
    this.barriers.get(payload)?.()
  }

  /**
   * Resolves once this instance has heard every notification sent before the call: one of its own,
   * sent after them, has come back (PostgreSQL delivers them in order to every listener at once).
   */
  async heardSoFar(send: (mark: string) => Promise<unknown>): Promise<void> {
    if (!this.listening) return
    const mark = `heard:${randomUUID()}`
    const heard = new Promise<void>((resolve) => {
      this.barriers.set(mark, resolve)
      setTimeout(resolve, 1000).unref() // a lost listener must not hold answers up
    })
    try {
      await send(mark)
      await heard
    } finally {
      this.barriers.delete(mark)
    }
    // Every listener was sent the change before this mark. One more turn of the event loop lets
    // another listener of this process (a second app, as in the two-instance tests) read what has
    // reached its socket too, before the answer leaves.
    await new Promise((resolve) => setImmediate(resolve))
  }

  async close() {
    this.closed = true
    clearTimeout(this.graceTimer)
    await this.listener?.end().catch(() => {})
  }

  // One reconnection at a time: a dying client may report more than one error, and two listeners
  // would hear every notification twice (and the second's catch-up would clear what the first let keep).
  private reconnectSoon() {
    if (this.closed || this.reconnectPending) return
    this.reconnectPending = true
    setTimeout(() => {
      this.reconnectPending = false
      this.listen().catch(() => this.reconnectSoon())
    }, this.options.retryMs).unref()
  }

  private lost() {
    this.listening = false
    if (this.options.outageGraceMs <= 0) this.tellAll('*')
    else
      this.graceTimer ??= setTimeout(() => {
        this.graceTimer = undefined
        if (!this.listening) this.tellAll('*')
      }, this.options.outageGraceMs).unref()
    this.reconnectSoon()
  }

  private async listen() {
    const client = new pg.Client({
      connectionString: this.url,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      keepAlive: true,
      application_name: 'amg-listener',
    })
    client.on('notification', (msg) => {
      if (msg.channel === EVENTS_CHANNEL) this.tellAll(msg.payload ?? '')
    })
    client.on('error', () => {
      // a client that never became the listener failed its connect, which listen's caller handles
      if (client !== this.listener || !this.listening) return
      client.end().catch(() => {})
      this.lost()
    })
    try {
      await client.connect()
      await client.query(`LISTEN ${EVENTS_CHANNEL}`)
    } catch (err) {
      client.end().catch(() => {})
      throw err
    }
    if (this.closed) return void client.end().catch(() => {})
    this.listener = client
    this.listening = true
    clearTimeout(this.graceTimer)
    this.graceTimer = undefined
    // whatever changed while nobody listened
    this.tellAll('*')
  }
}
