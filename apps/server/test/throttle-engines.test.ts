import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest'
import fc from 'fast-check'
import { sql } from 'drizzle-orm'
import { MemoryThrottleCounters } from '../src/auth/memory-throttle'
import { PgThrottleCounters } from '../src/auth/pg-throttle'
import { ThrottledError, type ThrottleCounters } from '../src/auth/throttle-rule'
import { queryRows } from '../src/db/connection'
import { createTestApp, type TestApp } from './helpers/app'

/**
 * DESIGN.md §19: the counters PostgreSQL keeps for every instance answer exactly as the counters in
 * memory do, for any sequence of attempts: the same admissions and refusals, the same Retry-After, the
 * same pause, the same 429 for a guess checked through a throttled address, with right passwords,
 * wrong ones and attempts never judged (503) taken back alike. Only Date is faked, to step through
 * the waits and past the point where quiet keys are forgotten.
 */
const policy = { loginFreeFailures: 1, loginMaxWaitSeconds: 8, loginFirstWaitSeconds: 1 }

type Outcome =
  { refused: number } | { pauseMs: number; verdict: 'right' | 'unjudged' | 'wrong' | { throttled: number } }

/** What one attempt answers on one engine, its settling included. */
async function attempt(
  counters: ThrottleCounters,
  step: { name: string; address: string; verdict: 'right' | 'wrong' | 'unjudged' },
): Promise<Outcome> {
  let admitted
  try {
    admitted = await counters.begin(step.name, step.address)
  } catch (err) {
    if (!(err instanceof ThrottledError)) throw err
    return { refused: err.retryAfterSeconds }
  }
  if (step.verdict === 'right') await admitted.succeeded()
  if (step.verdict === 'unjudged') await admitted.unjudged()
  if (step.verdict !== 'wrong') return { pauseMs: admitted.pauseMs, verdict: step.verdict }
  const refusal = admitted.refusal(new Error('wrong'))
  return {
    pauseMs: admitted.pauseMs,
    verdict: refusal instanceof ThrottledError ? { throttled: refusal.retryAfterSeconds } : 'wrong',
  }
}

describe.skipIf(!inject('pgTemplate'))('the shared counters (PostgreSQL) and the counters in memory', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp()
  })
  afterAll(async () => {
    vi.useRealTimers()
    await t?.close()
  })

  it('answer every sequence of attempts alike (property)', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const steps = fc.array(
      fc.record({
        name: fc.constantFrom('admin', 'bob', 'x', 'y', 'z'),
        address: fc.constantFrom('198.51.100.1', '198.51.100.2'),
        verdict: fc.constantFrom('right', 'wrong', 'wrong', 'wrong', 'unjudged') as fc.Arbitrary<
          'right' | 'wrong' | 'unjudged'
        >,
        // mostly within a wait, sometimes past the longest (8 s) and past forgetting (16 s)
        ms: fc.oneof({ weight: 5, arbitrary: fc.nat(1200) }, { weight: 1, arbitrary: fc.nat(20_000) }),
      }),
      { maxLength: 80 },
    )
    await fc.assert(
      fc.asyncProperty(steps, async (run) => {
        await t.db.execute(sql`delete from login_throttle`)
        const memory = new MemoryThrottleCounters(policy)
        const shared = new PgThrottleCounters(t.database.db, policy)
        for (const step of run) {
          vi.setSystemTime(Date.now() + step.ms)
          expect(await attempt(shared, step)).toEqual(await attempt(memory, step))
        }
      }),
      { numRuns: 60 },
    )
    // the counters were indeed kept in the table
    const [{ n }] = await queryRows<{ n: number }>(t.db, sql`select count(*)::int as n from login_throttle`)
    expect(n).toBeGreaterThan(0)
    vi.useRealTimers()
  }, 300_000)
})
