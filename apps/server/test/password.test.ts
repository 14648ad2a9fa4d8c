import { afterAll, describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { loadConfig } from '../src/config'
import {
  configurePasswordHashing,
  hashPassword,
  needsRehash,
  passwordHashCost,
  verifyPassword,
} from '../src/auth/password'
import { users } from '../src/db/schema'
import { createTestApp, TEST_PASSWORD_HASH_COST, type TestApp } from './helpers/app'
import { TEST_USER_PASSWORD } from './helpers/constants'

// Password hashing at OWASP's parameters (DESIGN.md §11). The rest of the suite hashes at 2^14 for
// speed; this file checks the real default, 2^17, and the upgrade of older hashes at sign-in.
const N = (hash: string) => Number(hash.split('$')[1])

const apps: TestApp[] = []
afterAll(async () => {
  for (const t of apps) await t.close()
  configurePasswordHashing(TEST_PASSWORD_HASH_COST)
})

describe('password hashing', () => {
  it('hashes at scrypt N=2^17, r=8, p=1 with the default configuration', async () => {
    expect(loadConfig({}).passwordHashCost).toBe(17)
    const t = await createTestApp({ passwordHashCost: loadConfig({}).passwordHashCost })
    apps.push(t)
    expect(passwordHashCost()).toBe(17)
    const hash = await hashPassword(TEST_USER_PASSWORD)
    expect(hash).toMatch(/^scrypt\$131072\$8\$1\$[\w-]+\$[\w-]+$/)
    expect(await verifyPassword(TEST_USER_PASSWORD, hash)).toBe(true)
    expect(await verifyPassword('Other#Pass2026', hash)).toBe(false)
  })

  it('upgrades a stored 2^14 hash to 2^17 at the next sign-in, and the password still works', async () => {
    const t = await createTestApp({ passwordHashCost: 17 })
    apps.push(t)
    const old = await hashPassword(TEST_USER_PASSWORD, 14)
    expect(N(old)).toBe(2 ** 14)
    const [{ id }] = await t.db
      .insert(users)
      .values({ nickName: 'old_hash', passwordHash: old, status: 1 })
      .returning({ id: users.id })
    const stored = async () =>
      (await t.db.select({ h: users.passwordHash }).from(users).where(eq(users.id, id)))[0].h

    // A wrong password upgrades nothing.
    const wrong = await t.call('POST', '/api/login', {
      body: { nickName: 'old_hash', password: 'Wrong#Pass0' },
    })
    expect(wrong.status).toBe(401)
    expect(await stored()).toBe(old)

    await t.login('old_hash', TEST_USER_PASSWORD)
    const upgraded = await stored()
    expect(N(upgraded)).toBe(2 ** 17)
    expect(upgraded).not.toBe(old)
    expect(await verifyPassword(TEST_USER_PASSWORD, upgraded)).toBe(true)
    expect(needsRehash(upgraded)).toBe(false)
    // Signing in again works and leaves the new hash alone.
    await t.login('old_hash', TEST_USER_PASSWORD)
    expect(await stored()).toBe(upgraded)
  })

  it('honours PASSWORD_HASH_COST, never downgrades a stronger hash, and refuses a cost below 2^14', async () => {
    const cost = loadConfig({ PASSWORD_HASH_COST: '15' }).passwordHashCost
    expect(cost).toBe(15)
    const t = await createTestApp({ passwordHashCost: cost })
    apps.push(t)
    expect(N(await hashPassword('Some#Pass2026'))).toBe(2 ** 15)
    const strong = await hashPassword(TEST_USER_PASSWORD, 17)
    expect(needsRehash(strong)).toBe(false)
    expect(needsRehash(await hashPassword(TEST_USER_PASSWORD, 14))).toBe(true)
    expect(() => configurePasswordHashing(13)).toThrow(/PASSWORD_HASH_COST/)
    expect(() => configurePasswordHashing(17.5)).toThrow(/PASSWORD_HASH_COST/)
  })
})
