import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import SCIMMY from 'scimmy'
import { userGroupUsers, users } from '../src/db/schema'
import { createTestApp, userIdByName, type TestApp } from './helpers/app'
import { apiKeyOf, scimClient, type ScimAnswer } from './helpers/scim'

/**
 * The request shapes Okta and Entra ID send (fixtures/scim/*.json, written from their documentation),
 * played in the order a provisioning run sends them. Every resource and list this server answers is
 * checked against the RFC 7643 schemas of an independent SCIM library (SCIMMY), not our own code.
 */
let t: TestApp
let scim: ReturnType<typeof scimClient>
beforeAll(async () => {
  t = await createTestApp()
  scim = scimClient(t, await apiKeyOf(t, (await userIdByName(t.db, 'admin'))!))
})
afterAll(async () => t.close())

const fixture = (name: string) =>
  JSON.parse(fs.readFileSync(path.join(__dirname, 'fixtures', 'scim', `${name}.json`), 'utf8')) as Record<
    string,
    any
  >

/** A fixture with its {{placeholders}} filled in. */
const fill = (value: unknown, ids: Record<string, string>) =>
  JSON.parse(JSON.stringify(value).replace(/\{\{(\w+)\}\}/g, (_, k: string) => ids[k] ?? `{{${k}}}`))

/** The answer is a valid User (or Group) by SCIMMY's reading of RFC 7643, as a client would receive it. */
function valid(kind: 'User' | 'Group', res: ScimAnswer) {
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300)
  expect(res.headers['content-type']).toContain('application/scim+json')
  const schema = kind === 'User' ? SCIMMY.Schemas.User : SCIMMY.Schemas.Group
  expect(() => schema.definition.coerce(res.body, 'out')).not.toThrow()
  expect(res.body.meta).toMatchObject({ resourceType: kind })
  expect(res.headers.etag).toBe(res.body.meta.version)
  return res.body
}

function validList(kind: 'User' | 'Group', res: ScimAnswer) {
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  expect(() => new SCIMMY.Messages.ListResponse(res.body)).not.toThrow()
  const schema = kind === 'User' ? SCIMMY.Schemas.User : SCIMMY.Schemas.Group
  for (const r of res.body.Resources) expect(() => schema.definition.coerce(r, 'out')).not.toThrow()
  return res.body
}

const query = (filter: string, extra = '') => `?filter=${encodeURIComponent(filter)}${extra}`

describe('Okta', () => {
  const okta = fixture('okta')

  it('the fixtures are well-formed PatchOp messages by SCIMMY', () => {
    for (const key of [
      'deactivateUser',
      'reactivateUser',
      'renameGroup',
      'addMembers',
      'removeMember',
      'replaceMembers',
      'replaceMembersEmpty',
    ])
      expect(
        () => new SCIMMY.Messages.PatchOp(fill(okta[key], { userId: '1', userId2: '2', groupId: '3' })),
      ).not.toThrow()
  })

  it('provisions a user: looks it up, creates, replaces, deactivates and reactivates', async () => {
    expect(
      validList(
        'User',
        await scim('GET', `/Users${query(okta.findUserByUserName, '&startIndex=1&count=100')}`),
      ).totalResults,
    ).toBe(0)
    const made = valid('User', await scim('POST', '/Users', okta.createUser))
    expect(made).toMatchObject({
      userName: 'test.user@okta.local',
      displayName: 'Test User',
      externalId: '00ujl29u0le5T6Aj10h7',
      active: true,
    })
    const found = validList('User', await scim('GET', `/Users${query(okta.findUserByUserName)}`))
    expect(found.Resources.map((r: { id: string }) => r.id)).toEqual([made.id])
    const ids = { userId: made.id }
    const replaced = valid('User', await scim('PUT', `/Users/${made.id}`, fill(okta.replaceUser, ids)))
    expect(replaced.displayName).toBe('Another User')
    const off = valid('User', await scim('PATCH', `/Users/${made.id}`, okta.deactivateUser))
    expect(off.active).toBe(false)
    expect(
      (
        await t.db
          .select()
          .from(users)
          .where(eq(users.id, Number(made.id)))
      )[0].status,
    ).toBe(2)
    expect(valid('User', await scim('PATCH', `/Users/${made.id}`, okta.reactivateUser)).active).toBe(true)
    expect(valid('User', await scim('GET', `/Users/${made.id}`)).active).toBe(true)
  })

  it('pushes a group: creates, renames, adds members, removes one by a value filter, replaces them, empties it', async () => {
    const u1 = valid(
      'User',
      await scim('POST', '/Users', { schemas: okta.createUser.schemas, userName: 'first.user@okta.local' }),
    ).id
    const u2 = valid(
      'User',
      await scim('POST', '/Users', { schemas: okta.createUser.schemas, userName: 'second.user@okta.local' }),
    ).id
    expect(
      validList('Group', await scim('GET', `/Groups${query(okta.findGroupByDisplayName)}`)).totalResults,
    ).toBe(0)
    const g = valid('Group', await scim('POST', '/Groups', okta.createGroup))
    const ids = { userId: u1, userId2: u2, groupId: g.id }
    const members = async () =>
      (
        await t.db
          .select()
          .from(userGroupUsers)
          .where(eq(userGroupUsers.groupId, Number(g.id)))
      )
        .map((r) => String(r.userId))
        .sort()
    expect(
      valid('Group', await scim('PATCH', `/Groups/${g.id}`, fill(okta.renameGroup, ids))).displayName,
    ).toBe('Test SCIMv2 renamed')
    valid('Group', await scim('PATCH', `/Groups/${g.id}`, fill(okta.addMembers, ids)))
    expect(await members()).toEqual([u1, u2].sort())
    valid('Group', await scim('PATCH', `/Groups/${g.id}`, fill(okta.removeMember, ids)))
    expect(await members()).toEqual([u2])
    const replaced = valid('Group', await scim('PATCH', `/Groups/${g.id}`, fill(okta.replaceMembers, ids)))
    expect(replaced.members.map((m: { value: string }) => m.value)).toEqual([u1])
    expect(await members()).toEqual([u1])
    const emptied = valid('Group', await scim('PATCH', `/Groups/${g.id}`, okta.replaceMembersEmpty))
    expect(emptied.members).toEqual([])
    expect(await members()).toEqual([])
  })
})

describe('Entra ID', () => {
  const entra = fixture('entra')

  it('the fixtures are well-formed PatchOp messages by SCIMMY', () => {
    for (const key of [
      'updateUserAttributes',
      'updateUserNoPath',
      'disableUser',
      'enableUser',
      'addMember',
      'removeMember',
      'replaceDisplayName',
    ])
      expect(() => new SCIMMY.Messages.PatchOp(fill(entra[key], { userId: '1' }))).not.toThrow()
  })

  it('provisions a user: filters by userName and externalId, creates, patches attributes, disables with "False"', async () => {
    expect(
      validList('User', await scim('GET', `/Users${query(entra.findUserByUserName)}`)).totalResults,
    ).toBe(0)
    const made = valid('User', await scim('POST', '/Users', entra.createUser))
    expect(made).toMatchObject({
      displayName: 'givenName familyName',
      externalId: entra.createUser.externalId,
    })
    expect(
      validList('User', await scim('GET', `/Users${query(entra.findUserByExternalId)}`)).Resources[0].id,
    ).toBe(made.id)
    const patched = valid('User', await scim('PATCH', `/Users/${made.id}`, entra.updateUserAttributes))
    // emails and the enterprise extension are not kept; the work phone is
    expect(patched.phoneNumbers).toEqual([{ value: '13900139000', type: 'work', primary: true }])
    const named = valid('User', await scim('PATCH', `/Users/${made.id}`, entra.updateUserNoPath))
    expect(named.displayName).toBe('Entra 显示名')
    expect(valid('User', await scim('PATCH', `/Users/${made.id}`, entra.disableUser)).active).toBe(false)
    expect(
      (
        await t.db
          .select()
          .from(users)
          .where(eq(users.id, Number(made.id)))
      )[0].status,
    ).toBe(2)
    expect(valid('User', await scim('PATCH', `/Users/${made.id}`, entra.enableUser)).active).toBe(true)
  })

  it('provisions a group: asks without members, adds a member without type, removes it by value, renames', async () => {
    const u = valid(
      'User',
      await scim('POST', '/Users', { schemas: entra.createUser.schemas, userName: 'entra_member' }),
    ).id
    const g = valid('Group', await scim('POST', '/Groups', entra.createGroup))
    const listed = validList(
      'Group',
      await scim('GET', `/Groups${query(entra.findGroupByDisplayName, '&excludedAttributes=members')}`),
    )
    expect(listed.Resources).toHaveLength(1)
    expect(listed.Resources[0].members).toBeUndefined()
    const ids = { userId: u }
    expect(
      valid('Group', await scim('PATCH', `/Groups/${g.id}`, fill(entra.addMember, ids))).members.map(
        (m: { value: string }) => m.value,
      ),
    ).toEqual([u])
    expect(
      valid('Group', await scim('PATCH', `/Groups/${g.id}`, fill(entra.removeMember, ids))).members,
    ).toEqual([])
    expect(valid('Group', await scim('PATCH', `/Groups/${g.id}`, entra.replaceDisplayName)).displayName).toBe(
      entra.replaceDisplayName.Operations[0].value,
    )
  })

  it('answers errors in SCIM’s error schema, by SCIMMY', async () => {
    const bad = await scim('GET', `/Users${query('userName eq')}`)
    expect(bad.status).toBe(400)
    expect(
      () =>
        new SCIMMY.Messages.ErrorResponse({
          status: 400,
          scimType: bad.body.scimType,
          detail: bad.body.detail,
        }),
    ).not.toThrow()
    expect(bad.body).toMatchObject({
      schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
      status: '400',
      scimType: 'invalidFilter',
    })
  })
})
