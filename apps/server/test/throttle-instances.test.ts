import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { throttledMessage } from '@amg/contract'
import { createTestApp, type TestApp } from './helpers/app'
import { TEST_ADMIN_PASSWORD } from './helpers/constants'
import { startSecondInstance } from './helpers/second-instance'

/**
 * DESIGN.md §19: two instances on one PostgreSQL database keep one sign-in throttle. Failures spread
 * over both count together: five free failures in all, not five per instance, and the refusal that
 * follows (429, Retry-After, the same message) is answered by either.
 */
describe.skipIf(!inject('pgTemplate'))('the sign-in throttle across two instances', () => {
  let a: TestApp
  let b: Awaited<ReturnType<typeof startSecondInstance>>
  beforeAll(async () => {
    // the first refusal lasts ten minutes: a slow machine cannot outrun it between the attempts below
    a = await createTestApp({ loginFirstWaitSeconds: 600 })
    b = await startSecondInstance(a)
  })
  afterAll(async () => {
    await b?.close()
    await a?.close()
  })

  const signIn = (app: FastifyInstance, nickName: string, password: string, remoteAddress: string) =>
    app.inject({ method: 'POST', url: '/api/login', payload: { nickName, password }, remoteAddress })
  const instances = () => [a.app, b.app]

  it('counts failures sent to either instance together, and either refuses once they are spent', async () => {
    const address = '198.51.100.41'
    for (let i = 0; i < 5; i++) {
      const res = await signIn(instances()[i % 2], 'admin', 'Wrong#Pass0', address)
      expect(res.statusCode, `failure ${i + 1}`).toBe(401)
    }
    for (const app of instances()) {
      // even the right password waits: the pair has spent its free failures, on both instances together
      const refused = await signIn(app, 'admin', TEST_ADMIN_PASSWORD, address)
      expect(refused.statusCode).toBe(429)
      const retryAfter = Number(refused.headers['retry-after'])
      expect(retryAfter).toBeGreaterThan(590)
      expect(refused.json()).toEqual({ code: 429, msg: throttledMessage(retryAfter), data: null })
    }
    // another address is not held back, on either instance
    expect((await signIn(b.app, 'admin', TEST_ADMIN_PASSWORD, '198.51.100.42')).statusCode).toBe(200)
  })

  it('lets no more than five failures through when attempts reach both instances at once', async () => {
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        signIn(instances()[i % 2], 'nobody_here', 'Wrong#Pass0', '198.51.100.43'),
      ),
    )
    const statuses = answers.map((r) => r.statusCode)
    expect(statuses.filter((s) => s === 401)).toHaveLength(5)
    expect(statuses.filter((s) => s === 429)).toHaveLength(7)
  })

  it('throttles one address guessing across accounts through both instances (four times the free failures)', async () => {
    const address = '198.51.100.44'
    for (let i = 0; i < 20; i++)
      expect((await signIn(instances()[i % 2], `spray_${i}`, 'Wrong#Pass0', address)).statusCode).toBe(401)
    // the twenty-first guess, at a new account, is checked (the pair has not failed) and refused with 429
    for (const app of instances())
      expect((await signIn(app, `spray_new_${app === a.app}`, 'Wrong#Pass0', address)).statusCode).toBe(429)
  })
})
