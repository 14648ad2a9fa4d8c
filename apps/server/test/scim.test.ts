import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { and, desc, eq, like } from 'drizzle-orm'
import { userGroupUsers, users, sessions } from '../src/db/schema'
import { operationLogs } from '../src/db/audit-schema'
import { events } from '../src/db/webhook-schema'
import { createTestApp, userIdByName, type TestApp } from './helpers/app'
import { apiKeyOf, ERROR_SCHEMA, GROUP_SCHEMA, patch, scimClient, USER_SCHEMA } from './helpers/scim'
import { TEST_USER_PASSWORD } from './helpers/constants'

/**
 * DESIGN.md §22: the SCIM 2.0 server at /scim/v2, driven as a SCIM client drives it, through bearer
 * API keys; what it writes is checked in the database, the operation log and the events.
 */
let t: TestApp
let scim: ReturnType<typeof scimClient>
let adminId: number
beforeAll(async () => {
  t = await createTestApp()
  adminId = (await userIdByName(t.db, 'admin'))!
  scim = scimClient(t, await apiKeyOf(t, adminId))
})
afterAll(async () => t.close())

const newUser = (userName: string, extra: Record<string, unknown> = {}) => ({
  schemas: [USER_SCHEMA],
  userName,
  ...extra,
})

const expectError = (res: { status: number; body: any }, status: number, scimType?: string) => {
  expect(res.status, JSON.stringify(res.body)).toBe(status)
  expect(res.body.schemas).toEqual([ERROR_SCHEMA])
  expect(res.body.status).toBe(String(status))
  if (scimType) expect(res.body.scimType).toBe(scimType)
  // the detail is the product's Chinese message
  expect(res.body.detail).toMatch(/[\u4e00-\u9fff]/)
}

const userRow = async (id: number) => (await t.db.select().from(users).where(eq(users.id, id)))[0]

describe('who may call /scim/v2', () => {
  it('answers 401 without a token, with a bad or unknown one, and with a session token', async () => {
    expectError(await scimClient(t, null)('GET', '/Users'), 401)
    expectError(await scimClient(t, 'ak_' + 'x'.repeat(43))('GET', '/Users'), 401)
    expectError(await scimClient(t, 'not-a-key-at-all-but-long-enough')('GET', '/Users'), 401)
    const res = await t.app.inject({
      method: 'GET',
      url: '/scim/v2/Users',
      headers: { 'x-auth-token': t.adminToken },
    })
    expect(res.statusCode).toBe(401)
  })

  it('answers 403 to a key whose user lacks scim, and to one lacking the permission of the call', async () => {
    const plain = await t.userWithCodes(['user'])
    expectError(await scimClient(t, await apiKeyOf(t, plain.id))('GET', '/Users'), 403)
    // scim alone opens the door but reads nothing: POST /user/list is the permission of the list
    const door = await t.userWithCodes(['scim'])
    const onlyDoor = scimClient(t, await apiKeyOf(t, door.id))
    expect((await onlyDoor('GET', '/ServiceProviderConfig')).status).toBe(200)
    expectError(await onlyDoor('GET', '/Users'), 403)
    expectError(await onlyDoor('POST', '/Users', newUser('door_made')), 403)
    expect(await userIdByName(t.db, 'door_made')).toBeUndefined()
    // user (the list) and user:add make a list and a creation possible, nothing more
    const maker = await t.userWithCodes(['scim', 'user', 'user:add'])
    const makerScim = scimClient(t, await apiKeyOf(t, maker.id))
    expect((await makerScim('GET', '/Users')).status).toBe(200)
    const made = await makerScim('POST', '/Users', newUser('maker_made'))
    expect(made.status, JSON.stringify(made.body)).toBe(201)
    expectError(
      await makerScim(
        'PATCH',
        `/Users/${made.body.id}`,
        patch({ op: 'replace', path: 'active', value: false }),
      ),
      403,
    )
    expect((await userRow(Number(made.body.id))).status).toBe(1)
  })

  it('refuses a frozen user’s key', async () => {
    const holder = await t.userWithCodes(['scim', 'user'])
    const key = await apiKeyOf(t, holder.id)
    await t.call('PUT', '/api/user/update', {
      token: t.adminToken,
      body: { id: holder.id, nickName: (await userRow(holder.id)).nickName, status: 2 },
    })
    expectError(await scimClient(t, key)('GET', '/Users'), 401)
  })
})

describe('discovery', () => {
  it('answers ServiceProviderConfig, ResourceTypes and Schemas as application/scim+json', async () => {
    const spc = await scim('GET', '/ServiceProviderConfig')
    expect(spc.status).toBe(200)
    expect(spc.headers['content-type']).toContain('application/scim+json')
    expect(spc.body).toMatchObject({
      patch: { supported: true },
      filter: { supported: true },
      etag: { supported: true },
    })
    const types = await scim('GET', '/ResourceTypes')
    expect(types.body.Resources.map((r: { id: string }) => r.id)).toEqual(['User', 'Group'])
    expect((await scim('GET', '/ResourceTypes/User')).body.endpoint).toBe('/Users')
    const schemas = await scim('GET', '/Schemas')
    expect(schemas.body.Resources.map((r: { id: string }) => r.id)).toEqual([USER_SCHEMA, GROUP_SCHEMA])
    expectError(await scim('GET', '/Schemas/urn:nope'), 404)
  })

  it('stays out of the API’s OpenAPI document, which describes the envelope SCIM does not use', () => {
    const doc = t.app.swagger() as { paths: Record<string, unknown> }
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/scim'))).toEqual([])
  })
})

describe('Users', () => {
  it('creates a user through the console’s rules, kept as SCIM’s with its externalId', async () => {
    const res = await scim(
      'POST',
      '/Users',
      newUser('scim_alice', {
        externalId: 'ext-alice',
        name: { formatted: '爱丽丝' },
        phoneNumbers: [{ value: '+86 138 0013 8000', type: 'work' }],
        emails: [{ value: 'alice@example.com', primary: true }],
        active: true,
      }),
    )
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    expect(res.headers.location).toMatch(new RegExp(`/scim/v2/Users/${res.body.id}$`))
    expect(res.headers.etag).toBe(res.body.meta.version)
    expect(res.body).toMatchObject({
      userName: 'scim_alice',
      displayName: '爱丽丝',
      name: { formatted: '爱丽丝' },
      externalId: 'ext-alice',
      active: true,
      phoneNumbers: [{ value: '13800138000', type: 'work' }],
      meta: { resourceType: 'User' },
    })
    expect(res.body.meta.version).toMatch(/^W\/"\d+"$/)
    expect(res.body.password).toBeUndefined()
    const row = await userRow(Number(res.body.id))
    expect(row).toMatchObject({
      source: 'scim',
      externalId: 'ext-alice',
      realName: '爱丽丝',
      mobile: '13800138000',
    })
    // no password given: a random one nobody knows, to be changed; the initial password does not work
    expect(row.mustChangePassword).toBe(1)
    expect(row.passwordIsInitial).toBe(0)
    const signIn = await t.call('POST', '/api/login', {
      body: { nickName: 'scim_alice', password: TEST_USER_PASSWORD },
    })
    expect(signIn.status).not.toBe(200)
  })

  it('takes a password the policy accepts, and refuses a weak one with the policy’s message', async () => {
    const weak = await scim('POST', '/Users', newUser('scim_weak', { password: '123' }))
    expectError(weak, 400, 'invalidValue')
    expect(await userIdByName(t.db, 'scim_weak')).toBeUndefined()
    const ok = await scim('POST', '/Users', newUser('scim_pw', { password: 'Scim@Pass2024' }))
    expect(ok.status).toBe(201)
    const signIn = await t.call('POST', '/api/login', {
      body: { nickName: 'scim_pw', password: 'Scim@Pass2024' },
    })
    expect(signIn.status).toBe(200)
  })

  it('refuses a taken userName or externalId (409 uniqueness) and bad values (400) with nothing made', async () => {
    await scim('POST', '/Users', newUser('scim_dup', { externalId: 'ext-dup' }))
    expectError(await scim('POST', '/Users', newUser('SCIM_DUP')), 409, 'uniqueness')
    expectError(
      await scim('POST', '/Users', newUser('scim_dup2', { externalId: 'ext-dup' })),
      409,
      'uniqueness',
    )
    expectError(
      await scim(
        'POST',
        '/Users',
        newUser('scim_badphone', { phoneNumbers: [{ value: '12', type: 'work' }] }),
      ),
      400,
      'invalidValue',
    )
    expectError(await scim('POST', '/Users', newUser('')), 400, 'invalidValue')
    expectError(await scim('POST', '/Users', newUser('x'.repeat(65))), 400, 'invalidValue')
    expectError(await scim('POST', '/Users', newUser('scim_bool', { active: 'maybe' })), 400, 'invalidValue')
    for (const name of ['scim_dup2', 'scim_badphone', 'scim_bool'])
      expect(await userIdByName(t.db, name)).toBeUndefined()
  })

  it('refuses unknown schemas, a body that is not JSON or not an object (400 with scimType)', async () => {
    expectError(
      await scim('POST', '/Users', { schemas: [USER_SCHEMA, 'urn:example:nope'], userName: 'u_schema' }),
      400,
      'invalidValue',
    )
    expectError(
      await scim('POST', '/Users', { schemas: ['urn:example:nope'], userName: 'u_schema' }),
      400,
      'invalidSyntax',
    )
    expectError(await scim('POST', '/Users', { userName: 'u_schema' }), 400, 'invalidSyntax')
    expectError(await scim('POST', '/Users', '{"schemas": ['), 400, 'invalidSyntax')
    expectError(await scim('POST', '/Users', '[1,2]'), 400, 'invalidSyntax')
    expect(await userIdByName(t.db, 'u_schema')).toBeUndefined()
  })

  it('takes application/json as well as application/scim+json', async () => {
    const res = await scim('POST', '/Users', JSON.stringify(newUser('scim_plain_json')), {
      'content-type': 'application/json',
    })
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    expect(res.headers['content-type']).toContain('application/scim+json')
  })

  it('filters with eq, ne, co, sw, pr, and, or, pages with startIndex and count', async () => {
    for (const n of ['flt_a', 'flt_b', 'flt_c'])
      await scim(
        'POST',
        '/Users',
        newUser(n, { externalId: `x-${n}`, displayName: n === 'flt_c' ? '丙' : undefined }),
      )
    const names = async (filter: string, extra = '') => {
      const res = await scim('GET', `/Users?filter=${encodeURIComponent(filter)}${extra}`)
      expect(res.status, JSON.stringify(res.body)).toBe(200)
      return (res.body.Resources as { userName: string }[]).map((r) => r.userName)
    }
    expect(await names('userName eq "FLT_A"')).toEqual(['flt_a'])
    expect(await names('externalId eq "x-flt_b"')).toEqual(['flt_b'])
    expect(await names('externalId eq "X-FLT_B"')).toEqual([])
    expect(await names('userName sw "flt_" and userName ne "flt_a"')).toEqual(['flt_b', 'flt_c'])
    expect(await names('userName co "lt_c" or displayName eq "丙"')).toEqual(['flt_c'])
    expect(await names('userName sw "flt_" and displayName pr')).toEqual(['flt_c'])
    expect(await names('(userName eq "flt_a" or userName eq "flt_b") and not (userName eq "flt_b")')).toEqual(
      ['flt_a'],
    )
    const page = await scim(
      'GET',
      `/Users?filter=${encodeURIComponent('userName sw "flt_"')}&startIndex=2&count=1`,
    )
    expect(page.body).toMatchObject({ totalResults: 3, startIndex: 2, itemsPerPage: 1 })
    expect(page.body.Resources[0].userName).toBe('flt_b')
    const none = await scim('GET', `/Users?filter=${encodeURIComponent('userName sw "flt_"')}&count=0`)
    expect(none.body).toMatchObject({ totalResults: 3, Resources: [] })
  })

  it('answers a bad filter with 400 invalidFilter', async () => {
    for (const filter of [
      'userName eq',
      'userName xx "a"',
      'password eq "x"',
      '(userName eq "a"',
      'userName eq "a" and',
      'emails[type eq "work"]',
    ])
      expectError(await scim('GET', `/Users?filter=${encodeURIComponent(filter)}`), 400, 'invalidFilter')
  })

  it('replaces with PUT and honours If-Match: a stale version is 412 and changes nothing', async () => {
    const made = (await scim('POST', '/Users', newUser('scim_put', { displayName: '旧名' }))).body
    const stale = made.meta.version
    const put = await scim(
      'PUT',
      `/Users/${made.id}`,
      { ...newUser('scim_put', { displayName: '新名' }), id: made.id },
      { 'if-match': stale },
    )
    expect(put.status, JSON.stringify(put.body)).toBe(200)
    expect(put.body.displayName).toBe('新名')
    expect(put.headers.etag).toBe(put.body.meta.version)
    const again = await scim('PUT', `/Users/${made.id}`, newUser('scim_put', { displayName: '第三个名' }), {
      'if-match': stale,
    })
    if (put.body.meta.version !== stale) {
      expectError(again, 412)
      expect((await userRow(Number(made.id))).realName).toBe('新名')
    }
    const patched = await scim(
      'PATCH',
      `/Users/${made.id}`,
      patch({ op: 'replace', path: 'displayName', value: '再改' }),
      { 'if-match': '*' },
    )
    expect(patched.body.displayName).toBe('再改')
  })

  it('DELETE freezes the user, ends their sessions, keeps the record, and answers 404 afterwards', async () => {
    const made = (await scim('POST', '/Users', newUser('scim_gone', { password: 'Scim@Gone2024' }))).body
    const id = Number(made.id)
    const token = await t.login('scim_gone', 'Scim@Gone2024')
    expect(token).toBeTruthy()
    expect((await t.db.select().from(sessions).where(eq(sessions.userId, id))).length).toBe(1)
    const del = await scim('DELETE', `/Users/${id}`)
    expect(del.status).toBe(204)
    expect(del.body).toBeNull()
    const row = await userRow(id)
    expect(row.status).toBe(2)
    expect(row.scimDeletedAt).not.toBeNull()
    expect((await t.db.select().from(sessions).where(eq(sessions.userId, id))).length).toBe(0)
    expectError(await scim('GET', `/Users/${id}`), 404)
    expectError(
      await scim('PATCH', `/Users/${id}`, patch({ op: 'replace', path: 'active', value: true })),
      404,
    )
    expectError(await scim('DELETE', `/Users/${id}`), 404)
    const listed = await scim('GET', `/Users?filter=${encodeURIComponent('userName eq "scim_gone"')}`)
    expect(listed.body.totalResults).toBe(0)
    // the console still shows the frozen user, for the audit trail
    const detail = await t.call('GET', '/api/user/detail', { token: t.adminToken, query: { userId: id } })
    expect(detail.body.data).toMatchObject({ nickName: 'scim_gone', status: 2 })
    // the name stays taken: a new SCIM user cannot take over the old one's record or trail
    expectError(await scim('POST', '/Users', newUser('scim_gone')), 409, 'uniqueness')
  })

  it('writes operation-log rows and change events for SCIM writes, and rows for refusals', async () => {
    const made = (await scim('POST', '/Users', newUser('scim_logged'))).body
    await scim('PATCH', `/Users/${made.id}`, patch({ op: 'replace', path: 'active', value: 'False' }))
    const rows = await t.db
      .select()
      .from(operationLogs)
      .where(and(like(operationLogs.path, `/scim/v2/Users%`), eq(operationLogs.resourceId, String(made.id))))
      .orderBy(desc(operationLogs.id))
    expect(rows.map((r) => [r.method, r.result, r.resourceType, r.operatorName])).toEqual([
      ['PATCH', 'success', '用户管理', 'admin'],
      ['POST', 'success', '用户管理', 'admin'],
    ])
    expect(rows[0].summary).toMatch(/冻结|SCIM/)
    const types = (await t.db.select().from(events).orderBy(desc(events.id)).limit(20)).map((e) => [
      e.type,
      e.payload,
    ])
    expect(types).toContainEqual(['user.created', expect.objectContaining({ id: Number(made.id) })])
    expect(types.some(([type]) => type === 'user.updated')).toBe(true)
    // a refused write has its row (a security event)
    const plain = await t.userWithCodes(['scim', 'user'])
    await scimClient(t, await apiKeyOf(t, plain.id))('POST', '/Users', newUser('scim_refused'))
    const [refused] = await t.db
      .select()
      .from(operationLogs)
      .where(eq(operationLogs.operatorId, plain.id))
      .orderBy(desc(operationLogs.id))
    expect(refused).toMatchObject({ result: 'denied', status: 403, path: '/scim/v2/Users' })
  })
})

describe('Groups', () => {
  it('creates a group with members, filters by displayName, leaves members out when asked', async () => {
    const a = (await scim('POST', '/Users', newUser('grp_a'))).body.id
    const b = (await scim('POST', '/Users', newUser('grp_b'))).body.id
    const made = await scim('POST', '/Groups', {
      schemas: [GROUP_SCHEMA],
      displayName: '研发群',
      externalId: 'g-1',
      members: [{ value: a }, { value: b }],
    })
    expect(made.status, JSON.stringify(made.body)).toBe(201)
    expect(made.body.members.map((m: { value: string }) => m.value)).toEqual([a, b])
    const listed = await scim(
      'GET',
      `/Groups?filter=${encodeURIComponent('displayName eq "研发群"')}&excludedAttributes=members`,
    )
    expect(listed.body.totalResults).toBe(1)
    expect(listed.body.Resources[0].members).toBeUndefined()
    const one = await scim('GET', `/Groups/${made.body.id}`)
    expect(one.body).toMatchObject({ displayName: '研发群', externalId: 'g-1' })
    expectError(
      await scim('POST', '/Groups', { schemas: [GROUP_SCHEMA], displayName: '研发群' }),
      409,
      'uniqueness',
    )
    expectError(
      await scim('POST', '/Groups', {
        schemas: [GROUP_SCHEMA],
        displayName: '坏成员',
        members: [{ value: 'abc' }],
      }),
      400,
      'invalidValue',
    )
  })

  it('PATCH adds and removes members through the links, renames, and replace members [] empties it', async () => {
    const ids = []
    for (const n of ['pm_a', 'pm_b', 'pm_c']) ids.push((await scim('POST', '/Users', newUser(n))).body.id)
    const g = (await scim('POST', '/Groups', { schemas: [GROUP_SCHEMA], displayName: '补丁群' })).body
    const members = async () =>
      (
        await t.db
          .select()
          .from(userGroupUsers)
          .where(eq(userGroupUsers.groupId, Number(g.id)))
      )
        .map((r) => String(r.userId))
        .sort()
    let res = await scim(
      'PATCH',
      `/Groups/${g.id}`,
      patch({ op: 'add', path: 'members', value: [{ value: ids[0] }, { value: ids[1] }] }),
    )
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(await members()).toEqual([ids[0], ids[1]].sort())
    res = await scim(
      'PATCH',
      `/Groups/${g.id}`,
      patch({ op: 'remove', path: `members[value eq "${ids[0]}"]` }),
    )
    expect(await members()).toEqual([ids[1]])
    res = await scim(
      'PATCH',
      `/Groups/${g.id}`,
      patch({ op: 'replace', value: { id: g.id, displayName: '补丁群2' } }),
    )
    expect(res.body.displayName).toBe('补丁群2')
    res = await scim('PATCH', `/Groups/${g.id}`, patch({ op: 'replace', path: 'members', value: [] }))
    expect(await members()).toEqual([])
    expectError(
      await scim('PATCH', `/Groups/${g.id}`, patch({ op: 'add', path: 'members[value eq', value: [] })),
      400,
      'invalidPath',
    )
    expectError(await scim('PATCH', `/Groups/${g.id}`, patch({ op: 'remove' })), 400, 'noTarget')
    expectError(await scim('PATCH', `/Groups/${g.id}`, patch({ op: 'move', path: 'members' })), 400)
    expectError(await scim('PATCH', `/Groups/${g.id}`, { Operations: [] }), 400, 'invalidSyntax')
    expectError(
      await scim(
        'PATCH',
        `/Groups/${g.id}`,
        patch({ op: 'add', path: 'members', value: [{ value: '999999' }] }),
      ),
      400,
    )
  })

  it('DELETE removes the group as the console’s 删除 does', async () => {
    const g = (await scim('POST', '/Groups', { schemas: [GROUP_SCHEMA], displayName: '待删群' })).body
    expect((await scim('DELETE', `/Groups/${g.id}`)).status).toBe(204)
    expectError(await scim('GET', `/Groups/${g.id}`), 404)
  })
})
