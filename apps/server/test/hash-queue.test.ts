import fs from 'node:fs'
import { afterAll, describe, expect, it } from 'vitest'
import { MSG } from '@amg/contract'
import { configurePasswordHashing, hashPassword, hashQueue, verifyPassword } from '../src/auth/password'
import { UnavailableError } from '../src/lib/errors'
import { users } from '../src/db/schema'
import { createTestApp, TEST_PASSWORD_HASH_COST, type TestApp } from './helpers/app'
import { TEST_USER_PASSWORD } from './helpers/constants'
import { eventually } from './helpers/pg-faults'

/**
 * Password hashing waits its turn (auth/hash-queue.ts): at most PASSWORD_HASH_CONCURRENCY hashes run,
 * on worker threads of lower priority, the rest queue in order, and one that waits longer than
 * PASSWORD_HASH_MAX_WAIT_SECONDS is refused with 503 instead of hanging. Meanwhile requests that need
 * no hash are answered.
 */
const apps: TestApp[] = []
afterAll(async () => {
  for (const t of apps) await t.close()
  configurePasswordHashing(TEST_PASSWORD_HASH_COST, { concurrency: 1, maxWaitSeconds: 10 })
})

/** Samples the queue every few milliseconds until `work` settles: the most hashes seen running at once. */
async function peakRunning<T>(work: Promise<T>): Promise<{ result: T; peak: number; peakQueued: number }> {
  let peak = 0
  let peakQueued = 0
  const timer = setInterval(() => {
    peak = Math.max(peak, hashQueue.running)
    peakQueued = Math.max(peakQueued, hashQueue.queued)
  }, 2)
  try {
    return { result: await work, peak, peakQueued }
  } finally {
    clearInterval(timer)
  }
}

describe('the hashing queue', () => {
  it('runs at most the configured number of hashes at once, and every hash still comes out right', async () => {
    for (const concurrency of [1, 2]) {
      configurePasswordHashing(TEST_PASSWORD_HASH_COST, { concurrency, maxWaitSeconds: 60 })
      const { result, peak, peakQueued } = await peakRunning(
        Promise.all(Array.from({ length: 4 }, (_, i) => hashPassword(`Pass#${i}word`))),
      )
      expect(peak).toBe(concurrency)
      expect(peakQueued).toBeGreaterThanOrEqual(4 - concurrency - 1)
      const checks = await Promise.all(result.map((hash, i) => verifyPassword(`Pass#${i}word`, hash)))
      expect(checks).toEqual([true, true, true, true])
      expect(await verifyPassword('Pass#0wordX', result[0])).toBe(false)
    }
  })

  it('refuses with 503 a hash that waited longer than the bound, and serves the next one', async () => {
    configurePasswordHashing(17, { concurrency: 1, maxWaitSeconds: 0.2 })
    const outcomes = await Promise.allSettled(
      Array.from({ length: 4 }, (_, i) => hashPassword(`Burst#${i}pass`)),
    )
    // the first runs at once; behind a 2^17 hash the others wait far longer than 0.2 s
    expect(outcomes[0].status).toBe('fulfilled')
    const refused = outcomes.filter((o) => o.status === 'rejected')
    expect(refused.length).toBeGreaterThanOrEqual(1)
    for (const r of refused) {
      const err = (r as PromiseRejectedResult).reason
      expect(err).toBeInstanceOf(UnavailableError)
      expect(err).toMatchObject({ status: 503, message: MSG.serviceBusy })
      expect(err.retryAfterSeconds).toBeGreaterThanOrEqual(1)
    }
    expect(hashQueue.queued).toBe(0)
    const after = await hashPassword('After#burst1')
    expect(await verifyPassword('After#burst1', after)).toBe(true)
  })

  it.skipIf(process.platform !== 'linux')(
    'hashes on threads of lower priority than the event loop',
    async () => {
      configurePasswordHashing(TEST_PASSWORD_HASH_COST, { concurrency: 1, maxWaitSeconds: 10 })
      await hashPassword('Nice#thread1')
      const niceOf = (task: string) =>
        Number(fs.readFileSync(`/proc/self/task/${task}/stat`, 'utf8').split(') ')[1].split(' ')[16])
      const tasks = fs.readdirSync('/proc/self/task')
      expect(niceOf(String(process.pid))).toBe(0)
      expect(tasks.some((task) => niceOf(task) > 0)).toBe(true)
    },
  )
})

describe('sign-ins in a burst', () => {
  it('wait their turn, a sign-in that waited too long answers 503 with Retry-After, and other calls are answered meanwhile', async () => {
    // set up with time to spare (the first sign-ins upgrade 2^14 hashes), then a bound of 1 s for the burst
    const t = await createTestApp({ passwordHashCost: 17, passwordHashConcurrency: 1 })
    apps.push(t)
    const { token } = await t.userWithCodes(['user', 'authz'], 'burst_checker')
    // eight accounts (one hash for all), so that the sign-in throttle, which counts per account, plays no part
    const passwordHash = await hashPassword(TEST_USER_PASSWORD)
    const names = Array.from({ length: 8 }, (_, i) => `burst_${i}`)
    await t.db.insert(users).values(names.map((nickName) => ({ nickName, passwordHash, status: 1 })))
    configurePasswordHashing(17, { concurrency: 1, maxWaitSeconds: 1 })
    const burst = names.map((nickName) =>
      t.app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { nickName, password: TEST_USER_PASSWORD },
      }),
    )
    // decisions from memory are answered while the hashes run and wait
    while (hashQueue.running === 0) await new Promise((r) => setTimeout(r, 5))
    for (let i = 0; i < 20; i++) {
      const check = await t.call('POST', '/api/authz/check', {
        token,
        body: { method: 'POST', path: '/user/list' },
      })
      expect(check.status).toBe(200)
      expect(check.body.data.allowed).toBe(true)
      if (i === 0) expect(hashQueue.running + hashQueue.queued).toBeGreaterThan(0)
    }

    const answers = await Promise.all(burst)
    const statuses = answers.map((a) => a.statusCode)
    expect(statuses.filter((s) => s !== 200 && s !== 503)).toEqual([])
    expect(statuses).toContain(200)
    expect(statuses).toContain(503)
    for (const a of answers.filter((x) => x.statusCode === 503)) {
      expect(a.json()).toEqual({ code: 503, msg: MSG.serviceBusy, data: null })
      expect(Number(a.headers['retry-after'])).toBeGreaterThanOrEqual(1)
    }
    // every sign-in that was answered 200 holds a working session
    for (const a of answers.filter((x) => x.statusCode === 200)) {
      const me = await t.call('GET', '/api/user/current', { token: a.json().data.token })
      expect(me.status).toBe(200)
    }
  }, 120_000)
})

describe('a hash nobody waits for any more', () => {
  it('leaves the queue at once, refused as busy, while the running hash finishes; one that started is finished', async () => {
    configurePasswordHashing(TEST_PASSWORD_HASH_COST, { concurrency: 1, maxWaitSeconds: 60 })
    const stored = await hashPassword('kept')
    // the one worker busy for a while (2^16), two checks waiting behind it
    const running = hashPassword('occupies the worker', 16)
    await eventually(async () => hashQueue.running === 1, 'the long hash running')
    const waiting = verifyPassword('kept', stored)
    const wanted = new AbortController()
    const abandoned = verifyPassword('kept', stored, wanted.signal)
    expect(hashQueue.queued).toBe(2)
    wanted.abort()
    await expect(abandoned).rejects.toThrow(MSG.serviceBusy)
    expect(hashQueue.queued).toBe(1)
    expect(hashQueue.running).toBe(1)
    expect(await waiting).toBe(true)
    expect(await verifyPassword('occupies the worker', await running)).toBe(true)
    // a signal aborted before the call: refused without queueing
    const gone = new AbortController()
    gone.abort()
    await expect(verifyPassword('kept', stored, gone.signal)).rejects.toBeInstanceOf(UnavailableError)
    expect(hashQueue.queued).toBe(0)
    // aborted once running: the hash is finished and answers
    const late = new AbortController()
    const check = verifyPassword('kept', stored, late.signal)
    await eventually(async () => hashQueue.running === 1, 'the check running')
    late.abort()
    expect(await check).toBe(true)
  }, 120_000)
})
