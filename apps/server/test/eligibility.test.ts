import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { ACCESS_MSG } from '@amg/contract'
import { accessRequests, eligibilities, roleAuths } from '../src/db/schema'
import { createTestApp, type TestApp } from './helpers/app'
import { approve, directLinks, roleWith } from './helpers/access'
import { oathtool, previousStepCode } from './helpers/totp'

/**
 * Eligibility (DESIGN.md §20): granted with the power to link the role; activated by its user with a
 * session alone, for minutes within the maximum, a reason and a TOTP code where required; approvals
 * 0 links at once in the granter's name (their power and reach checked again now), 1 or 2 make an
 * access request.
 */
let t: TestApp
let target: number
let granter: { id: number; token: string; roleId: number }
let user: { id: number; token: string }
let secret = ''

/** Codes are made for a step next to now: not in a step's last seconds, so the check sees the same step. */
async function awayFromStepEdge() {
  const into = (Date.now() / 1000) % 30
  if (into > 26) await new Promise((r) => setTimeout(r, (30 - into + 0.5) * 1000))
}

const grant = (token: string, body: Record<string, unknown>) =>
  t.call('POST', '/api/eligibility/insert', { token, body })
const activate = (token: string, body: Record<string, unknown>) =>
  t.call('POST', '/api/eligibility/activate', { token, body })

beforeAll(async () => {
  t = await createTestApp()
  target = await roleWith(t, 'el_target', ['user'], { requestable: false })
  granter = await t.userWithCodes(
    ['eligibility', 'eligibility:add', 'eligibility:delete', 'user'],
    'el_granter',
  )
  user = await t.userWithCodes([], 'el_user')
  // the user binds two-step sign-in with a code of a past step, leaving now's codes unused
  const setup = await t.call('POST', '/api/user/mfa/setup', { token: user.token, body: {} })
  secret = setup.body.data.secret
  await awayFromStepEdge()
  const enabled = await t.call('POST', '/api/user/mfa/enable', {
    token: user.token,
    body: { code: await previousStepCode(secret) },
  })
  expect([enabled.status, enabled.body.msg]).toEqual([200, '两步验证已绑定'])
})
afterAll(async () => t.close())

describe('granting', () => {
  it('needs the power to link the role; bad input changes nothing', async () => {
    const weak = await t.userWithCodes(['eligibility:add'], 'el_weak')
    const refused = await grant(weak.token, { userId: user.id, roleId: target, maxMinutes: 60 })
    expect(refused.status).toBe(403)
    expect(refused.body.msg).toContain('不能授予或管理超出自己权限的内容')
    const short = await grant(granter.token, { userId: user.id, roleId: target, maxMinutes: 10 })
    expect([short.status, short.body.msg]).toEqual([400, ACCESS_MSG.maxMinutesInvalid])
    const approvals = await grant(granter.token, {
      userId: user.id,
      roleId: target,
      maxMinutes: 60,
      approvals: 3,
    })
    expect([approvals.status, approvals.body.msg]).toEqual([400, ACCESS_MSG.approvalsInvalid])
    expect(await t.db.select().from(eligibilities)).toHaveLength(0)
    // and granting is no link: the user holds nothing yet
    expect((await directLinks(t, user.id)).map((l) => l.role_id)).not.toContain(target)
  })

  it("lists: one's own with a session; someone else's only with the power to grant", async () => {
    const id = (
      await grant(granter.token, { userId: user.id, roleId: target, maxMinutes: 60, requireMfa: true })
    ).body.data
    expect(typeof id).toBe('number')
    const dup = await grant(granter.token, { userId: user.id, roleId: target, maxMinutes: 30 })
    expect([dup.status, dup.body.msg]).toEqual([409, ACCESS_MSG.eligibilityExists])
    const own = await t.call('POST', '/api/eligibility/list', { token: user.token, body: {} })
    expect(own.body.data.map((e: { id: number }) => e.id)).toEqual([id])
    const others = await t.call('POST', '/api/eligibility/list', {
      token: user.token,
      body: { userId: granter.id },
    })
    expect(others.status).toBe(403)
    const managed = await t.call('POST', '/api/eligibility/list', {
      token: granter.token,
      body: { userId: user.id },
    })
    expect(managed.body.data[0]).toMatchObject({ roleName: 'el_target', maxMinutes: 60, requireMfa: true })
  })
})

describe('activating with approvals 0', () => {
  it('refuses minutes out of range, a missing reason, a missing or wrong code; nothing is linked', async () => {
    const [e] = await t.db.select().from(eligibilities).where(eq(eligibilities.userId, user.id))
    const cases: [Record<string, unknown>, string][] = [
      [{ id: e.id, minutes: 90, reason: '超时', code: '000000' }, ACCESS_MSG.minutesAboveMax(60)],
      [{ id: e.id, minutes: 10, reason: '太短' }, ACCESS_MSG.minutesInvalid],
      [{ id: e.id, minutes: 30, reason: ' ' }, ACCESS_MSG.reasonRequired],
      [{ id: e.id, minutes: 30, reason: '无码' }, ACCESS_MSG.codeRequired],
      [{ id: e.id, minutes: 30, reason: '错码', code: '000000' }, ACCESS_MSG.codeWrong],
    ]
    for (const [body, msg] of cases) {
      const res = await activate(user.token, body)
      expect([res.status, res.body.msg]).toEqual([400, msg])
    }
    expect((await directLinks(t, user.id)).map((l) => l.role_id)).not.toContain(target)
    // another user cannot activate it
    const other = await t.userWithCodes([], 'el_other')
    expect((await activate(other.token, { id: e.id, minutes: 30, reason: '冒用' })).status).toBe(403)
  })

  it('a code from an independent TOTP implementation links the role until now + minutes; the code is not reused', async () => {
    const [e] = await t.db.select().from(eligibilities).where(eq(eligibilities.userId, user.id))
    await awayFromStepEdge()
    const code = oathtool(secret, Date.now() + 30_000)
    const res = await activate(user.token, { id: e.id, minutes: 30, reason: '夜间值班', code })
    expect(res.status).toBe(200)
    expect(res.body.msg).toBe(ACCESS_MSG.activated)
    expect(res.body.data.active).toBe(true)
    const end = new Date(res.body.data.expiresAt).getTime()
    expect(Math.abs(end - (Date.now() + 30 * 60_000))).toBeLessThan(60_000)
    const link = (await directLinks(t, user.id)).find((l) => l.role_id === target)
    expect(new Date(link!.expires_at!).getTime()).toBe(end)
    expect((await t.call('POST', '/api/user/list', { token: user.token, body: {} })).status).toBe(200)
    const mine = await t.call('GET', '/api/access-request/my-roles', { token: user.token })
    const row = mine.body.data.find((r: { roleId: number }) => r.roleId === target)
    expect(new Date(row.expiresAt).getTime()).toBe(end)
    const reused = await activate(user.token, { id: e.id, minutes: 30, reason: '再用一次', code })
    expect([reused.status, reused.body.msg]).toEqual([400, ACCESS_MSG.codeWrong])
  })

  it("checks the granter's power again: a granter who lost it vouches for nothing", async () => {
    const other = await t.userWithCodes([], 'el_later')
    const e = (
      await grant(granter.token, { userId: other.id, roleId: target, maxMinutes: 60, requireReason: false })
    ).body.data
    await t.db.delete(roleAuths).where(eq(roleAuths.roleId, granter.roleId))
    await t.db.insert(roleAuths).values([{ roleId: granter.roleId, authCode: 'eligibility:add' }])
    await t.app.ctx.authz.invalidate()
    const res = await activate(other.token, { id: e, minutes: 30 })
    expect([res.status, res.body.msg]).toEqual([403, ACCESS_MSG.granterGone])
    expect((await directLinks(t, other.id)).map((l) => l.role_id)).not.toContain(target)
    await t.db.insert(roleAuths).values([
      { roleId: granter.roleId, authCode: 'user' },
      { roleId: granter.roleId, authCode: 'eligibility' },
      { roleId: granter.roleId, authCode: 'eligibility:delete' },
    ])
    await t.app.ctx.authz.invalidate()
    const ok = await activate(other.token, { id: e, minutes: 30 })
    expect(ok.status).toBe(200)
    // deleting the eligibility needs the same power
    const del = await t.call('DELETE', '/api/eligibility/delete', { token: granter.token, query: { id: e } })
    expect(del.status).toBe(200)
    expect(await t.db.select().from(eligibilities).where(eq(eligibilities.id, e))).toHaveLength(0)
  })
})

describe('activating with approvals 1 and 2', () => {
  it('makes an access request that approvers decide; two approvals are two people', async () => {
    const asker = await t.userWithCodes([], 'el_asker')
    const a1 = await t.userWithCodes(['access-request:approve', 'user'], 'el_a1')
    const a2 = await t.userWithCodes(['access-request:approve', 'user'], 'el_a2')
    for (const approvals of [1, 2]) {
      const role = await roleWith(t, `el_role_${approvals}`, ['user'], { requestable: false })
      const e = (await grant(granter.token, { userId: asker.id, roleId: role, maxMinutes: 120, approvals }))
        .body.data
      const res = await activate(asker.token, { id: e, minutes: 120, reason: `审批 ${approvals}` })
      expect(res.status).toBe(200)
      const requestId = res.body.data.requestId as number
      const [row] = await t.db.select().from(accessRequests).where(eq(accessRequests.id, requestId))
      expect(row).toMatchObject({
        status: 'pending',
        approvalsNeeded: approvals,
        eligibilityId: e,
        minutes: 120,
      })
      expect((await directLinks(t, asker.id)).map((l) => l.role_id)).not.toContain(role)
      expect((await approve(t, a1.token, requestId)).status).toBe(200)
      if (approvals === 2) {
        expect((await directLinks(t, asker.id)).map((l) => l.role_id)).not.toContain(role)
        expect((await approve(t, a1.token, requestId)).status).toBe(409)
        expect((await approve(t, a2.token, requestId)).status).toBe(200)
      }
      const link = (await directLinks(t, asker.id)).find((l) => l.role_id === role)
      expect(link?.expires_at).toBeTruthy()
    }
  })
})
