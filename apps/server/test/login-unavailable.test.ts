import { randomBytes } from 'node:crypto'
import net from 'node:net'
import { eq } from 'drizzle-orm'
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest'
import pg from 'pg'
import { MSG } from '@amg/contract'
import { configurePasswordHashing, hashPassword, hashQueue } from '../src/auth/password'
import { sessions, users } from '../src/db/schema'
import { loginLogs } from '../src/db/audit-schema'
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

  it('a sign-in whose client goes while it waits makes no hash, opens no session and records nothing; one that stays signs in', async () => {
    const [name] = await makeUsers(t, 1)
    // stored at 2^17, so that its check runs long enough to be left while it runs (below)
    const [user] = await t.db
      .update(users)
      .set({ passwordHash: await hashPassword(TEST_USER_PASSWORD, 17) })
      .where(eq(users.nickName, name))
      .returning({ id: users.id })
    if (!t.app.server.listening) await t.app.listen({ port: 0, host: '127.0.0.1' })
    const { port } = t.app.server.address() as net.AddressInfo
    /** A sign-in over a socket of its own, which the test closes to leave it. */
    const signInOver = (password: string) => {
      const body = JSON.stringify({ nickName: name, password })
      const socket = net.connect(port, '127.0.0.1')
      socket.write(
        `POST /api/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      )
      return socket
    }
    const rows = async () => ({
      sessions: (await t.db.select().from(sessions).where(eq(sessions.userId, user.id))).length,
      logs: (await t.db.select().from(loginLogs).where(eq(loginLogs.userId, user.id))).map((l) => l.result),
    })
    configurePasswordHashing(TEST_PASSWORD_HASH_COST, { concurrency: 1, maxWaitSeconds: 60 })
    try {
      // left while waiting behind a long hash: out of the queue before its turn, the long hash still
      // running. A long hash for each sign-in, so that it outlasts that sign-in's way to the queue on a
      // busy machine (one shorter hash for all three ended too soon under CI's load); such a machine
      // takes many seconds for these hashes, hence the longer time the test is given.
      for (let i = 0; i < 3; i++) {
        const occupying = hashPassword('Blocker#2026x', 17)
        await eventually(async () => hashQueue.running === 1, 'the long hash running')
        const socket = signInOver('Wrong#Pass0')
        await eventually(async () => hashQueue.queued === 1, 'the sign-in waiting')
        socket.destroy()
        await eventually(async () => hashQueue.queued === 0, 'the sign-in gone from the queue')
        expect(hashQueue.running).toBe(1)
        await occupying
      }
      expect(await rows()).toEqual({ sessions: 0, logs: [] })

      // left while its check runs, with the right password: judged, but no session opened for nobody
      const socket = signInOver(TEST_USER_PASSWORD)
      await eventually(async () => hashQueue.running === 1, 'the check running')
      socket.destroy()
      await eventually(async () => hashQueue.running === 0, 'the check done')
      await new Promise((r) => setTimeout(r, 200))
      expect(await rows()).toEqual({ sessions: 0, logs: [] })
    } finally {
      hashingFree()
    }
    // the client that stays signs in
    await expectSignedIn(t, name)
    expect(await rows()).toEqual({ sessions: 1, logs: ['success'] })
  }, 120_000)

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
