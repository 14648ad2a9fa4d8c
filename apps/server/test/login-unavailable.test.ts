import { randomBytes } from 'node:crypto'
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest'
import pg from 'pg'
import { MSG } from '@amg/contract'
import { configurePasswordHashing, hashPassword, hashQueue } from '../src/auth/password'
import { users } from '../src/db/schema'
import { createTestApp, TEST_PASSWORD_HASH_COST, type TestApp } from './helpers/app'
import { TEST_USER_PASSWORD } from './helpers/constants'
import { eventually, failOnUncaughtErrors, PgFaults } from './helpers/pg-faults'

/**
 * A sign-in answered 503 (hashing busy, the database away) never judged the password, so it is no
 * failed sign-in (DESIGN.md §11): under load, right passwords must not end up refused with 429 once
 * the load is gone. Wrong passwords still count as before.
 */

/** Each account's name says its client address: every test (and every retry) starts clean on both. */
const addressOf = (nickName: string) => `10.${nickName.split('_').at(-2)}`

const signIn = (t: TestApp, nickName: string, password: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/login',
    payload: { nickName, password },
    remoteAddress: addressOf(nickName),
  })

/** `count` new accounts behind one new client address. */
async function makeUsers(t: TestApp, count: number): Promise<string[]> {
  const [a, b, c] = randomBytes(3)
  const names = Array.from({ length: count }, (_, i) => `u_${a}.${b}.${c}_${i}`)
  const passwordHash = await hashPassword(TEST_USER_PASSWORD)
  await t.db.insert(users).values(names.map((nickName) => ({ nickName, passwordHash, status: 1 })))
  return names
}

/** Hashing as the server has it: nothing waits long. */
const hashingFree = () =>
  configurePasswordHashing(TEST_PASSWORD_HASH_COST, { concurrency: 1, maxWaitSeconds: 10 })

/**
 * Sign-ins sent while one slow hash (2^17) holds the only hashing thread and a hash may wait 20 ms:
 * each is answered 503 with the busy message.
 */
async function whileHashingBusy(t: TestApp, attempts: { nickName: string; password: string }[]) {
  configurePasswordHashing(17, { concurrency: 1, maxWaitSeconds: 0.02 })
  try {
    const blocker = hashPassword('Blocker#2026x')
    await eventually(async () => hashQueue.running === 1, 'the slow hash running')
    const answers = await Promise.all(attempts.map((a) => signIn(t, a.nickName, a.password)))
    for (const res of answers) {
      expect(res.statusCode).toBe(503)
      expect(res.json()).toEqual({ code: 503, msg: MSG.serviceBusy, data: null })
    }
    await blocker
  } finally {
    hashingFree()
  }
}

async function expectSignedIn(t: TestApp, nickName: string) {
  const res = await signIn(t, nickName, TEST_USER_PASSWORD)
  expect(res.statusCode, res.body).toBe(200)
  expect(res.json().data.token).toBeTruthy()
}

/**
 * The first refusal's wait in these tests: long enough that the attempts after the fifth failure below
 * arrive while it lasts however slow the machine (a one-second wait could run out first).
 */
const LONG_FIRST_WAIT = 600

/** Five wrong passwords answer 401 each (the free failures), the sixth 429: the count started from zero. */
async function expectCountFromZero(t: TestApp, nickName: string) {
  for (let i = 0; i < 5; i++) expect((await signIn(t, nickName, 'Wrong#Pass0')).statusCode).toBe(401)
  expect((await signIn(t, nickName, 'Wrong#Pass0')).statusCode).toBe(429)
  // and the pair is refused now, right password or not
  expect((await signIn(t, nickName, TEST_USER_PASSWORD)).statusCode).toBe(429)
}

describe('sign-ins answered 503 because hashing is busy', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp({ loginFirstWaitSeconds: LONG_FIRST_WAIT })
  })
  afterAll(async () => {
    hashingFree()
    await t?.close()
  })

  it('leave the throttle as it was: the right password then gets in at once, and wrong ones count from zero', async () => {
    const [one] = await makeUsers(t, 1)
    const right = { nickName: one, password: TEST_USER_PASSWORD }
    // eight 503s for one account and address, more than the five free failures
    await whileHashingBusy(t, Array(4).fill(right))
    await whileHashingBusy(t, Array(4).fill(right))
    await expectSignedIn(t, one)

    const [two] = await makeUsers(t, 1)
    // four at a time: attempts under way count in advance, so a sixth at once would be refused
    const wrong = { nickName: two, password: 'Wrong#Pass0' }
    await whileHashingBusy(t, Array(4).fill(wrong))
    await whileHashingBusy(t, Array(4).fill(wrong))
    await expectCountFromZero(t, two)
  })

  it('behind one address, ten accounts answered 503 three times each all get in once hashing is free', async () => {
    const names = await makeUsers(t, 10)
    // thirty 503s from one address: more than the address may fail across accounts (4 × 5)
    for (let round = 0; round < 3; round++)
      await whileHashingBusy(
        t,
        names.map((nickName) => ({ nickName, password: TEST_USER_PASSWORD })),
      )
    for (const nickName of names) await expectSignedIn(t, nickName)
  })

  it('wrong passwords judged while hashing is free still count', async () => {
    const [wrong] = await makeUsers(t, 1)
    await expectCountFromZero(t, wrong)
  })
})

failOnUncaughtErrors()

describe.skipIf(!inject('pgTemplate'))(
  'sign-ins answered 503 because the database went away (PostgreSQL)',
  () => {
    const faults = new PgFaults()
    let t: TestApp
    let locker: pg.Client | undefined
    beforeAll(async () => {
      await faults.open()
      t = await createTestApp({ loginFirstWaitSeconds: LONG_FIRST_WAIT })
    })
    afterEach(async () => {
      await locker?.end().catch(() => {})
      locker = undefined
    })
    afterAll(async () => {
      await t?.close()
      await faults.close()
    })

    /**
     * A sign-in whose reading of the account is cut off: the users table is locked from another
     * session, so the sign-in's statement waits, and its backend is terminated while it waits.
     */
    async function cutOff(nickName: string, password: string) {
      const pending = signIn(t, nickName, password)
      await eventually(
        async () => (await faults.backends(t.databaseUrl!)).some((b) => b.wait_event_type === 'Lock'),
        'the sign-in waiting for the users table',
      )
      expect(await faults.terminate(t.databaseUrl!, { lockWaitersOnly: true })).toBeGreaterThan(0)
      const res = await pending
      expect(res.statusCode).toBe(503)
      expect(res.json()).toEqual({ code: 503, msg: MSG.serviceUnavailable, data: null })
    }

    async function lockUsers() {
      locker = new pg.Client({ connectionString: t.databaseUrl })
      locker.on('error', () => {})
      await locker.connect()
      await locker.query('begin')
      await locker.query('lock table users in access exclusive mode')
    }

    it('leave the throttle as it was: the right password then gets in at once, and wrong ones count from zero', async () => {
      const [one] = await makeUsers(t, 1)
      const [two] = await makeUsers(t, 1)
      await lockUsers()
      for (let i = 0; i < 6; i++) await cutOff(one, TEST_USER_PASSWORD)
      for (let i = 0; i < 6; i++) await cutOff(two, 'Wrong#Pass0')
      await locker!.query('rollback')

      await expectSignedIn(t, one)
      await expectCountFromZero(t, two)
    })
  },
)
