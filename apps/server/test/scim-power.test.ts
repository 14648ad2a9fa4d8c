import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { BEYOND_POWER_PREFIX, MSG } from '@amg/contract'
import { userGroupUsers, users } from '../src/db/schema'
import { createTestApp, type TestApp } from './helpers/app'
import { seedScopedCompany, type ScopedCompany } from './helpers/scoped-company'
import { seedCompany, type Company } from './helpers/company'
import { apiKeyOf, patch, scimClient, USER_SCHEMA } from './helpers/scim'

/**
 * SCIM writes obey power (DESIGN.md §6a) and reach (§13) exactly as the console's calls do: a key
 * acts as its user, so a department administrator's key reaches only that department, and a limited
 * administrator's key gives no power that administrator lacks.
 */
let t: TestApp
let c: ScopedCompany
let k: Company
let dept: ReturnType<typeof scimClient>
let limited: ReturnType<typeof scimClient>
beforeAll(async () => {
  t = await createTestApp()
  c = await seedScopedCompany(t)
  k = await seedCompany(t)
  dept = scimClient(t, await apiKeyOf(t, c.scoped.id))
  limited = scimClient(t, await apiKeyOf(t, k.limited.id))
})
afterAll(async () => t.close())

const groupMembers = async (groupId: number) =>
  (await t.db.select().from(userGroupUsers).where(eq(userGroupUsers.groupId, groupId)))
    .map((r) => r.userId)
    .sort((a, b) => a - b)
const status = async (id: number) => (await t.db.select().from(users).where(eq(users.id, id)))[0].status

describe('a department administrator’s key (reach)', () => {
  it('cannot create users outside its reach: SCIM gives no position, so the new user would be nobody’s', async () => {
    const res = await dept('POST', '/Users', { schemas: [USER_SCHEMA], userName: 'dept_made' })
    expect(res.status).toBe(403)
    expect(res.body.detail).toBe(MSG.positionRequiredInScope)
    expect((await t.db.select().from(users).where(eq(users.nickName, 'dept_made'))).length).toBe(0)
  })

  it('sees and changes only the users in its scope', async () => {
    const listed = await dept('GET', '/Users?count=500')
    const ids = (listed.body.Resources as { id: string }[]).map((r) => Number(r.id))
    expect(ids).toContain(c.inside)
    expect(ids).toContain(c.straddler)
    expect(ids).not.toContain(c.outside)
    expect(ids).not.toContain(c.unplaced)
    expect((await dept('GET', `/Users/${c.outside}`)).status).toBe(404)
    expect(
      (await dept('PATCH', `/Users/${c.outside}`, patch({ op: 'replace', path: 'active', value: false })))
        .status,
    ).toBe(404)
    expect(await status(c.outside)).toBe(1)
    // the straddler is visible (one department in scope) but not writable (not all of them)
    const straddle = await dept(
      'PATCH',
      `/Users/${c.straddler}`,
      patch({ op: 'replace', path: 'active', value: false }),
    )
    expect(straddle.status).toBe(403)
    expect(straddle.body.detail).toBe(MSG.userOutOfScope)
    expect(await status(c.straddler)).toBe(1)
    const inside = await dept(
      'PATCH',
      `/Users/${c.inside}`,
      patch({ op: 'replace', path: 'active', value: 'False' }),
    )
    expect(inside.status).toBe(200)
    expect(await status(c.inside)).toBe(2)
    await dept('PATCH', `/Users/${c.inside}`, patch({ op: 'replace', path: 'active', value: true }))
  })

  it('adds and removes group members only within its scope; a refused change changes nothing', async () => {
    const before = await groupMembers(c.group)
    // the member list shows only members it may see: the outside user is not among them
    const shown = (await dept('GET', `/Groups/${c.group}`)).body.members.map((m: { value: string }) =>
      Number(m.value),
    )
    expect(shown.sort((a: number, b: number) => a - b)).toEqual([c.inside, c.straddler].sort((a, b) => a - b))
    const add = await dept(
      'PATCH',
      `/Groups/${c.group}`,
      patch({ op: 'add', path: 'members', value: [{ value: String(c.unplaced) }] }),
    )
    expect(add.status).toBe(403)
    expect(add.body.detail).toBe(MSG.userOutOfScope)
    // replace members [] would remove the straddler, who is beyond its reach: refused whole
    const empty = await dept(
      'PATCH',
      `/Groups/${c.group}`,
      patch({ op: 'replace', path: 'members', value: [] }),
    )
    expect(empty.status).toBe(403)
    expect(await groupMembers(c.group)).toEqual(before)
    // removing the inside member is within reach; the outside member, unseen, stays
    const removed = await dept(
      'PATCH',
      `/Groups/${c.group}`,
      patch({ op: 'remove', path: `members[value eq "${c.inside}"]` }),
    )
    expect(removed.status).toBe(200)
    expect(await groupMembers(c.group)).toEqual(before.filter((id) => id !== c.inside))
    expect(await groupMembers(c.group)).toContain(c.outside)
  })
})

describe('a limited administrator’s key (power)', () => {
  it('cannot add members to a group carrying power it lacks, nor change a stronger user', async () => {
    const beyond = await limited(
      'PATCH',
      `/Groups/${k.strongGroup}`,
      patch({ op: 'add', path: 'members', value: [{ value: String(k.plainUser) }] }),
    )
    expect(beyond.status).toBe(403)
    expect(beyond.body.detail.startsWith(BEYOND_POWER_PREFIX)).toBe(true)
    expect(await groupMembers(k.strongGroup)).not.toContain(k.plainUser)
    const stronger = await limited(
      'PATCH',
      `/Users/${k.strongUser}`,
      patch({ op: 'replace', path: 'active', value: false }),
    )
    expect(stronger.status).toBe(403)
    expect(await status(k.strongUser)).toBe(1)
    const superAdmin = await limited('DELETE', `/Users/${k.adminId}`)
    expect(superAdmin.status).toBe(403)
    expect(await status(k.adminId)).toBe(1)
  })

  it('may do what lies within its power', async () => {
    const ok = await limited(
      'PATCH',
      `/Groups/${k.weakGroup}`,
      patch({ op: 'add', path: 'members', value: [{ value: String(k.plainUser) }] }),
    )
    expect(ok.status, JSON.stringify(ok.body)).toBe(200)
    expect(await groupMembers(k.weakGroup)).toContain(k.plainUser)
  })
})
