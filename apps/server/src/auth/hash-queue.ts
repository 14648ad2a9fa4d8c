import { Worker } from 'node:worker_threads'
import { MSG } from '@amg/contract'
import { UnavailableError } from '../lib/errors'

export interface ScryptJob {
  password: string
  salt: Buffer
  keyLength: number
  options: { N: number; r: number; p: number; maxmem: number }
}

/**
 * The nice value of the hashing threads. On Linux a thread's priority is its own, so this lowers
 * only them: when cores are scarce the event loop (decisions from memory, every other request)
 * runs first, and hashing takes what is left.
 */
const HASHING_NICE = 10

/**
 * The worker's code, plain JavaScript run as is (no loader needed, in the server, the scripts or the
 * tests): one synchronous scrypt at a time on the worker's own thread, never on libuv's thread pool,
 * which file, DNS and other crypto work share.
 */
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads')
const { scryptSync } = require('node:crypto')
const os = require('node:os')
if (process.platform === 'linux') {
  try { os.setPriority(${HASHING_NICE}) } catch {}
}
parentPort.on('message', ({ password, salt, keyLength, options }) => {
  try {
    parentPort.postMessage({ key: scryptSync(password, Buffer.from(salt), keyLength, options) })
  } catch (err) {
    parentPort.postMessage({ error: String((err && err.message) || err) })
  }
})
`

interface Queued {
  job: ScryptJob
  resolve(key: Buffer): void
  reject(err: Error): void
  timer?: NodeJS.Timeout
  /** stops listening to the caller's signal, once the hash has started or left the queue */
  unlisten?: () => void
}

interface HashWorker {
  worker: Worker
  current?: Queued
}

/**
 * Password hashing with bounded concurrency. scrypt at N=2^17 takes a core for a good part of a
 * second and 128 MB; a burst of sign-ins or user creations hashed all at once would take every core
 * (and libuv's whole thread pool) from requests that need a millisecond. Here at most `concurrency`
 * hashes run, each on a worker thread of lower priority; the rest wait their turn in order, and one
 * that waited longer than `maxWaitMs` is refused with 503 (`UnavailableError`) instead of hanging.
 */
export class HashQueue {
  private readonly workers: HashWorker[] = []
  private readonly waiting: Queued[] = []

  constructor(
    private concurrency: number,
    private maxWaitMs: number,
  ) {}

  configure(concurrency: number, maxWaitMs: number) {
    this.concurrency = Math.max(1, Math.floor(concurrency))
    this.maxWaitMs = maxWaitMs
    this.pump()
  }

  /** Hashes waiting for their turn (tests and the bench look). */
  get queued(): number {
    return this.waiting.length
  }

  /** Hashes running right now. */
  get running(): number {
    return this.workers.filter((w) => w.current).length
  }

  /**
   * The key of `job`, in its turn. `wanted`: aborted once nobody waits for the answer any more (the
   * client of a sign-in gone, DESIGN.md §11). A hash still waiting then leaves the queue at once and
   * fails like one that waited too long, so a guess nobody waits for takes no turn from those who do;
   * a hash already running is finished.
   */
  scrypt(job: ScryptJob, wanted?: AbortSignal): Promise<Buffer> {
    return new Promise<Buffer>((resolve, reject) => {
      if (wanted?.aborted) return reject(this.busy())
      const item: Queued = { job, resolve, reject }
      this.waiting.push(item)
      this.pump()
      if (!this.waiting.includes(item)) return
      if (this.maxWaitMs > 0) item.timer = setTimeout(() => this.leave(item), this.maxWaitMs)
      if (wanted) {
        const abandoned = () => this.leave(item)
        wanted.addEventListener('abort', abandoned, { once: true })
        item.unlisten = () => wanted.removeEventListener('abort', abandoned)
      }
    })
  }

  /** The refusal of a hash that did not get its turn: 503, to try again a little later. */
  private busy(): UnavailableError {
    return new UnavailableError(MSG.serviceBusy, Math.max(1, Math.ceil(this.maxWaitMs / 1000)))
  }

  /** A waiting hash leaves the queue, refused (it waited too long, or is no longer wanted). */
  private leave(item: Queued) {
    const at = this.waiting.indexOf(item)
    if (at < 0) return
    this.waiting.splice(at, 1)
    clearTimeout(item.timer)
    item.unlisten?.()
    item.reject(this.busy())
  }

  /** Starts waiting hashes on idle workers, adding workers up to the bound. */
  private pump() {
    while (this.waiting.length > 0) {
      let slot = this.workers.find((w) => !w.current)
      if (!slot) {
        if (this.workers.length >= this.concurrency) return
        slot = this.spawn()
      }
      const item = this.waiting.shift()!
      clearTimeout(item.timer)
      item.unlisten?.()
      slot.current = item
      slot.worker.ref() // a script awaiting a hash must not exit under it
      slot.worker.postMessage(item.job)
    }
    // fewer workers wanted now (configure): retire idle ones beyond the bound
    for (const w of this.workers.filter((x) => !x.current).slice(this.concurrency)) this.retire(w)
  }

  private spawn(): HashWorker {
    const slot: HashWorker = { worker: new Worker(WORKER_SOURCE, { eval: true }) }
    slot.worker.unref()
    slot.worker.on('message', (answer: { key?: Uint8Array; error?: string }) => {
      const item = slot.current
      slot.current = undefined
      slot.worker.unref()
      if (answer.key) item?.resolve(Buffer.from(answer.key.buffer, answer.key.byteOffset, answer.key.length))
      else item?.reject(new Error(answer.error ?? 'hashing failed'))
      this.pump()
    })
    // A worker that dies takes only its own hash with it; the next one gets a new worker.
    const died = (err: Error) => {
      this.forget(slot)
      slot.current?.reject(err)
      slot.current = undefined
      this.pump()
    }
    slot.worker.on('error', died)
    slot.worker.on('exit', (code) => died(new Error(`hashing worker exited (${code})`)))
    this.workers.push(slot)
    return slot
  }

  private retire(slot: HashWorker) {
    this.forget(slot)
    void slot.worker.terminate()
  }

  private forget(slot: HashWorker) {
    const at = this.workers.indexOf(slot)
    if (at >= 0) this.workers.splice(at, 1)
  }
}
