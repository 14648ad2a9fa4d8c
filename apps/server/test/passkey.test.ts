import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { and, desc, eq } from 'drizzle-orm'
import { DEFAULT_SECURITY_SETTINGS, PASSKEY_MSG, SIGN_IN_MSG } from '@amg/contract'
import { loginLogs, operationLogs } from '../src/db/audit-schema'
import { passkeyChallenges, passkeys, sessions, users } from '../src/db/schema'
import { createTestApp, userIdByName, type TestApp } from './helpers/app'
import { TEST_USER_PASSWORD } from './helpers/constants'
import { SoftAuthenticator } from './helpers/soft-authenticator'
import { hashToken } from '../src/lib/tokens'

const ORIGIN = 'http://localhost:8080'
let t: TestApp
beforeAll(async () => {
  // the relying party from PUBLIC_URL, as a deployment behind a gateway has it
  t = await createTestApp({ publicUrl: ORIGIN, publicUrlSet: true })
})
afterAll(async () => t.close())

const lastLogin = async () => (await t.db.select().from(loginLogs).orderBy(desc(loginLogs.id)).limit(1))[0]
const setMfa = (mfa: string) =>
  t.call('PUT', '/api/settings/security', {
    token: t.adminToken,
    body: { ...DEFAULT_SECURITY_SETTINGS, forceChangeInitial: false, mfa },
  })

/** Registers a new software passkey for the session's user through the API. */
async function enrol(token: string, name = '我的电脑') {
  const key = new SoftAuthenticator('localhost', ORIGIN)
  const options = await t.call('POST', '/api/user/passkey/register/options', { token, body: {} })
  expect(options.status).toBe(200)
  expect(options.body.data.rp.id).toBe('localhost')
  expect(options.body.data.authenticatorSelection.userVerification).toBe('required')
  const verify = await t.call('POST', '/api/user/passkey/register/verify', {
    token,
    body: { response: key.register(options.body.data), name },
  })
  expect(verify.status, verify.raw).toBe(200)
  return { key, id: verify.body.data.id as number }
}

const loginOptions = async (mfaToken?: string) => {
  const res = await t.call('POST', '/api/login/passkey/options', { body: mfaToken ? { mfaToken } : {} })
  expect(res.status).toBe(200)
  return res.body.data as {
    challengeId: string
    options: { challenge: string; allowCredentials?: unknown[] }
  }
}
const loginVerify = (challengeId: string, response: unknown, mfaToken?: string) =>
  t.call('POST', '/api/login/passkey/verify', {
    body: { challengeId, response, ...(mfaToken ? { mfaToken } : {}) },
  })

describe('registering', () => {
  it('stores the passkey under its name, lists it, logs the change', async () => {
    const u = await t.userWithCodes(['user'], 'pk_owner')
    const { id } = await enrol(u.token, '办公室电脑')
    const list = await t.call('POST', '/api/user/passkey/list', { token: u.token, body: {} })
    expect(list.body.data.list).toEqual([
      { id, name: '办公室电脑', createTime: expect.any(String), lastUsedTime: null },
    ])
    const [row] = await t.db.select().from(passkeys).where(eq(passkeys.id, id))
    expect(row.userId).toBe(u.id)
    expect(row.transports).toBe('internal')
    const [log] = await t.db.select().from(operationLogs).orderBy(desc(operationLogs.id)).limit(1)
    expect(log.summary).toBe('添加通行密钥')
    expect(log.result).toBe('success')
    // rename and its log row
    const renamed = await t.call('PUT', '/api/user/passkey/update', {
      token: u.token,
      body: { id, name: '新名字' },
    })
    expect(renamed.status).toBe(200)
    expect((await t.db.select().from(passkeys).where(eq(passkeys.id, id)))[0].name).toBe('新名字')
  })

  it('refuses a wrong origin, a used challenge and a response without user verification', async () => {
    const u = await t.userWithCodes(['user'], 'pk_reg_bad')
    const key = new SoftAuthenticator('localhost', ORIGIN)
    const options = (await t.call('POST', '/api/user/passkey/register/options', { token: u.token, body: {} }))
      .body.data
    const wrong = await t.call('POST', '/api/user/passkey/register/verify', {
      token: u.token,
      body: { response: key.register(options, { origin: 'http://evil.example' }), name: 'x' },
    })
    expect(wrong.status).toBe(400)
    expect(wrong.body.msg).toBe(PASSKEY_MSG.verifyFailed)
    const options2 = (
      await t.call('POST', '/api/user/passkey/register/options', { token: u.token, body: {} })
    ).body.data
    const noUv = await t.call('POST', '/api/user/passkey/register/verify', {
      token: u.token,
      body: { response: key.register(options2, { flags: 0x01 }), name: 'x' },
    })
    expect(noUv.status).toBe(400)
    const options3 = (
      await t.call('POST', '/api/user/passkey/register/options', { token: u.token, body: {} })
    ).body.data
    const response = key.register(options3)
    expect(
      (
        await t.call('POST', '/api/user/passkey/register/verify', {
          token: u.token,
          body: { response, name: 'a' },
        })
      ).status,
    ).toBe(200)
    const again = await t.call('POST', '/api/user/passkey/register/verify', {
      token: u.token,
      body: { response, name: 'b' },
    })
    expect(again.status).toBe(400)
    expect(again.body.msg).toBe(PASSKEY_MSG.challengeInvalid)
    expect(await t.db.select().from(passkeys).where(eq(passkeys.userId, u.id))).toHaveLength(1)
    const blank = await t.call('POST', '/api/user/passkey/register/verify', {
      token: u.token,
      body: { response, name: '  ' },
    })
    expect(blank.status).toBe(400)
    expect(blank.body.msg).toBe(PASSKEY_MSG.nameRequired)
  })
})

describe('signing in with a passkey', () => {
  it('signs in with no name typed, and refuses the same response again', async () => {
    const u = await t.userWithCodes(['user'], 'pk_signin')
    const { key, id } = await enrol(u.token)
    const { challengeId, options } = await loginOptions()
    expect(options.allowCredentials ?? []).toEqual([])
    const response = key.assert(options)
    const res = await loginVerify(challengeId, response)
    expect(res.status, res.raw).toBe(200)
    expect(res.body.data.user.id).toBe(u.id)
    expect(res.body.data.restricted).toBeUndefined()
    const current = await t.call('GET', '/api/user/current', { token: res.body.data.token })
    expect(current.body.data.nickName).toBe('pk_signin')
    const [row] = await t.db.select().from(passkeys).where(eq(passkeys.id, id))
    expect(row.counter).toBe(1)
    expect(row.lastUsedTime).not.toBeNull()
    expect((await lastLogin()).msg).toBe(PASSKEY_MSG.signedIn)
    // the challenge is gone: a replay is refused and logged
    const replay = await loginVerify(challengeId, response)
    expect(replay.status).toBe(401)
    expect(replay.body.msg).toBe(PASSKEY_MSG.challengeInvalid)
    const log = await lastLogin()
    expect([log.result, log.userId, log.msg]).toEqual(['failure', u.id, PASSKEY_MSG.challengeInvalid])
    expect(await t.db.select().from(passkeyChallenges).where(eq(passkeyChallenges.id, challengeId))).toEqual(
      [],
    )
  })

  it('refuses a response made for another challenge, a wrong origin, a bogus signature, a counter gone back', async () => {
    const u = await t.userWithCodes(['user'], 'pk_refusals')
    const { key, id } = await enrol(u.token)
    const a = await loginOptions()
    const b = await loginOptions()
    const refused = async (res: Awaited<ReturnType<typeof loginVerify>>, msg: string) => {
      expect(res.status).toBe(401)
      expect(res.body.msg).toBe(msg)
      const log = await lastLogin()
      expect([log.result, log.userId, log.msg]).toEqual(['failure', u.id, msg])
    }
    await refused(await loginVerify(b.challengeId, key.assert(a.options)), PASSKEY_MSG.verifyFailed)
    const c = await loginOptions()
    await refused(
      await loginVerify(c.challengeId, key.assert(c.options, { origin: 'https://phish.example' })),
      PASSKEY_MSG.verifyFailed,
    )
    const d = await loginOptions()
    await refused(
      await loginVerify(d.challengeId, key.assert(d.options, { badSignature: true })),
      PASSKEY_MSG.verifyFailed,
    )
    const e = await loginOptions()
    await refused(
      await loginVerify(e.challengeId, key.assert(e.options, { flags: 0x01 })),
      PASSKEY_MSG.verifyFailed,
    )
    // a good one moves the counter to 10; then a cloned authenticator at 5 is refused
    const f = await loginOptions()
    expect((await loginVerify(f.challengeId, key.assert(f.options, { counter: 10 }))).status).toBe(200)
    const g = await loginOptions()
    await refused(
      await loginVerify(g.challengeId, key.assert(g.options, { counter: 5 })),
      PASSKEY_MSG.counterBack,
    )
    expect((await t.db.select().from(passkeys).where(eq(passkeys.id, id)))[0].counter).toBe(10)
    // an unknown credential
    const stranger = new SoftAuthenticator('localhost', ORIGIN)
    const h = await loginOptions()
    const res = await loginVerify(h.challengeId, stranger.assert(h.options))
    expect(res.status).toBe(401)
    expect(res.body.msg).toBe(PASSKEY_MSG.unknownCredential)
  })

  it('lets a passkey-only user sign in unrestricted: no second step, no forced password change', async () => {
    const u = await t.userWithCodes(['user', 'user:edit'], 'pk_only')
    const { key } = await enrol(u.token)
    await t.db.update(users).set({ mustChangePassword: 1 }).where(eq(users.id, u.id))
    const put = await t.call('PUT', '/api/settings/security', {
      token: t.adminToken,
      body: { ...DEFAULT_SECURITY_SETTINGS, forceChangeInitial: true, mfa: 'all' },
    })
    expect(put.status).toBe(200)
    try {
      // with the password: the second step, then the session must change the password
      const password = await t.call('POST', '/api/login', {
        body: { nickName: 'pk_only', password: TEST_USER_PASSWORD },
      })
      expect(password.body.data).toMatchObject({ mfaRequired: true, methods: ['passkey'] })
      const step = await loginOptions(password.body.data.mfaToken)
      const stepped = await loginVerify(
        step.challengeId,
        key.assert(step.options),
        password.body.data.mfaToken,
      )
      expect(stepped.body.data.restricted).toBe('password_change')
      // with the passkey alone: both factors, nothing to restrict
      const { challengeId, options } = await loginOptions()
      const res = await loginVerify(challengeId, key.assert(options))
      expect(res.status).toBe(200)
      expect(res.body.data.restricted).toBeUndefined()
      const [s] = await t.db
        .select()
        .from(sessions)
        .where(eq(sessions.tokenHash, hashToken(res.body.data.token)))
      expect(s.restricted).toBeNull()
      expect((await t.call('POST', '/api/user/list', { token: res.body.data.token, body: {} })).status).toBe(
        200,
      )
    } finally {
      await setMfa('off')
      await t.db.update(users).set({ mustChangePassword: 0 }).where(eq(users.id, u.id))
    }
  })

  it('serves as the second step where TOTP is asked', async () => {
    const u = await t.userWithCodes(['user', 'user:edit'], 'pk_second')
    const { key } = await enrol(u.token)
    expect((await setMfa('admins')).status).toBe(200)
    try {
      const first = await t.call('POST', '/api/login', {
        body: { nickName: 'pk_second', password: TEST_USER_PASSWORD },
      })
      expect(first.body.data).toMatchObject({ mfaRequired: true, methods: ['passkey'] })
      const mfaToken = first.body.data.mfaToken
      const { challengeId, options } = await loginOptions(mfaToken)
      expect(options.allowCredentials).toEqual([expect.objectContaining({ id: key.id })])
      // the passkey of someone else does not finish this sign-in
      const other = await enrol((await t.userWithCodes(['user'], 'pk_second_other')).token)
      const wrong = await loginVerify(challengeId, other.key.assert(options), mfaToken)
      expect(wrong.status).toBe(401)
      expect((await lastLogin()).result).toBe('mfa_failure')
      const again = await loginOptions(mfaToken)
      const res = await loginVerify(again.challengeId, key.assert(again.options), mfaToken)
      expect(res.status, res.raw).toBe(200)
      expect(res.body.data.restricted).toBeUndefined()
      // the step's token is spent
      const spent = await loginOptions().then((o) =>
        loginVerify(o.challengeId, key.assert(o.options), mfaToken),
      )
      expect(spent.status).toBe(401)
    } finally {
      await setMfa('off')
    }
  })
})

describe('mfa: admins-passkey', () => {
  it('restricts an administrator without a passkey to enrolling one, then asks for it', async () => {
    expect((await setMfa('admins-passkey')).status).toBe(200)
    try {
      const admin = await t.userWithCodes(['user', 'user:edit'], 'pk_admin')
      await t.userWithCodes(['user'], 'pk_reader')
      const first = await t.call('POST', '/api/login', {
        body: { nickName: 'pk_admin', password: TEST_USER_PASSWORD },
      })
      expect(first.body.data.restricted).toBe('passkey_enroll')
      const token = first.body.data.token
      const refused = await t.call('POST', '/api/user/list', { token, body: {} })
      expect(refused.status).toBe(403)
      expect(refused.body.msg).toBe(PASSKEY_MSG.mustEnroll)
      // a reader is not an administrator: a plain session
      const reader = await t.call('POST', '/api/login', {
        body: { nickName: 'pk_reader', password: TEST_USER_PASSWORD },
      })
      expect(reader.body.data.restricted).toBeUndefined()
      expect(reader.body.data.token).toEqual(expect.any(String))
      // enrolment frees the session
      const { key } = await enrol(token)
      expect((await t.call('POST', '/api/user/list', { token, body: {} })).status).toBe(200)
      // the next password sign-in asks for the passkey, and only for it
      const second = await t.call('POST', '/api/login', {
        body: { nickName: 'pk_admin', password: TEST_USER_PASSWORD },
      })
      expect(second.body.data).toMatchObject({ mfaRequired: true, methods: ['passkey'] })
      expect(second.body.data.token).toBeUndefined()
      const mfaToken = second.body.data.mfaToken
      const totp = await t.call('POST', '/api/login/mfa', { body: { mfaToken, code: '123456' } })
      expect(totp.status).toBe(401)
      expect(totp.body.msg).toBe(SIGN_IN_MSG.mfaTokenInvalid)
      const { challengeId, options } = await loginOptions(mfaToken)
      const res = await loginVerify(challengeId, key.assert(options), mfaToken)
      expect(res.status, res.raw).toBe(200)
      expect(res.body.data.user.id).toBe(admin.id)
      expect(res.body.data.restricted).toBeUndefined()
    } finally {
      await setMfa('off')
    }
  })
})

describe('restricted sessions', () => {
  it('lets a session held back for a second factor enrol a passkey, not one held back for a password', async () => {
    const u = await t.userWithCodes(['user', 'user:edit'], 'pk_restricted')
    await t.db.update(users).set({ mustChangePassword: 1 }).where(eq(users.id, u.id))
    await t.call('PUT', '/api/settings/security', {
      token: t.adminToken,
      body: { ...DEFAULT_SECURITY_SETTINGS, forceChangeInitial: true, mfa: 'admins' },
    })
    try {
      const first = await t.call('POST', '/api/login', {
        body: { nickName: 'pk_restricted', password: TEST_USER_PASSWORD },
      })
      expect(first.body.data.restricted).toBe('password_change')
      const refused = await t.call('POST', '/api/user/passkey/register/options', {
        token: first.body.data.token,
        body: {},
      })
      expect(refused.status).toBe(403)
      expect(refused.body.msg).toBe(SIGN_IN_MSG.mustChangePassword)
      await t.db.update(users).set({ mustChangePassword: 0 }).where(eq(users.id, u.id))
      const second = await t.call('POST', '/api/login', {
        body: { nickName: 'pk_restricted', password: TEST_USER_PASSWORD },
      })
      expect(second.body.data.restricted).toBe('mfa_enroll')
      await enrol(second.body.data.token)
      expect(
        (await t.call('POST', '/api/user/list', { token: second.body.data.token, body: {} })).status,
      ).toBe(200)
    } finally {
      await setMfa('off')
    }
  })
})

describe("an administrator and another user's passkeys", () => {
  it('lists and removes them, ending that user’s sessions', async () => {
    const u = await t.userWithCodes(['user'], 'pk_target')
    const { id } = await enrol(u.token)
    const list = await t.call('POST', '/api/user/passkey/list', {
      token: t.adminToken,
      body: { userId: u.id },
    })
    expect(list.body.data.list.map((p: { id: number }) => p.id)).toEqual([id])
    const res = await t.call('DELETE', '/api/user/passkey/delete', {
      token: t.adminToken,
      query: { id, userId: u.id },
    })
    expect(res.status).toBe(200)
    expect(await t.db.select().from(passkeys).where(eq(passkeys.userId, u.id))).toEqual([])
    expect((await t.call('GET', '/api/user/current', { token: u.token })).status).toBe(401)
    const [log] = await t.db.select().from(operationLogs).orderBy(desc(operationLogs.id)).limit(1)
    expect(log.summary).toBe('删除通行密钥')
  })

  it('refuses a caller without the power or the reach to write that user', async () => {
    const editor = await t.userWithCodes(['user', 'user:edit'], 'pk_editor')
    const reader = await t.userWithCodes(['user'], 'pk_lister')
    const adminId = (await userIdByName(t.db, 'admin'))!
    const { id } = await enrol(t.adminToken, 'admin 的密钥')
    // the super admin holds more power than the editor
    const beyond = await t.call('DELETE', '/api/user/passkey/delete', {
      token: editor.token,
      query: { id, userId: adminId },
    })
    expect(beyond.status).toBe(403)
    const noRight = await t.call('POST', '/api/user/passkey/list', {
      token: reader.token,
      body: { userId: adminId },
    })
    expect(noRight.status).toBe(403)
    expect(
      await t.db
        .select()
        .from(passkeys)
        .where(and(eq(passkeys.id, id), eq(passkeys.userId, adminId))),
    ).toHaveLength(1)
    // someone's own passkey id through their own account: not found, not removed
    const mine = await t.call('DELETE', '/api/user/passkey/delete', { token: reader.token, query: { id } })
    expect(mine.status).toBe(404)
    // a peer within power and reach: allowed
    const peer = await t.userWithCodes(['user'], 'pk_peer')
    const peerKey = await enrol(peer.token)
    const ok = await t.call('DELETE', '/api/user/passkey/delete', {
      token: editor.token,
      query: { id: peerKey.id, userId: peer.id },
    })
    expect(ok.status).toBe(200)
  })
})
