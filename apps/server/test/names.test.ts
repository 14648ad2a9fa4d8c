import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { sql } from 'drizzle-orm'
import { MSG, NAME_LABELS, isCleanName, nameMessages, normalizeName } from '@amg/contract'
import { queryRows } from '../src/db/connection'
import { createTestApp, type TestApp, rootOrgIdOf } from './helpers/app'
import { TEST_ADMIN_PASSWORD } from './helpers/constants'

/**
 * DESIGN.md §11 (security review): names a person types are NFKC-normalised and refuse invisible,
 * format and look-alike characters, on every name field, through the API; sign-in and the searches
 * normalise the same way.
 */
let t: TestApp
let rootOrgId: number
let seq = 0
const uniq = () => `${Date.now().toString(36)}${(seq++).toString(36)}`
/** a service key part: lower-case letters and digits */
const uniqKey = () => `${Date.now().toString(36)}${(seq++).toString(36)}`.toLowerCase()
/** digits only: a suffix that mixes no script into the name it ends */
const uniqDigits = () => `${Date.now()}${seq++}`

beforeAll(async () => {
  t = await createTestApp()
  rootOrgId = await rootOrgIdOf(t.db)
})
afterAll(async () => t.close())

/** One name field: how to send a name in it, and where it is stored. */
interface NameField {
  name: string
  label: string
  send: (value: string) => { method: string; url: string; body: Record<string, unknown> }
  table: string
  column: string
}

const FIELDS: NameField[] = [
  {
    name: 'user nickName (insert)',
    label: NAME_LABELS.nickName,
    send: (nickName) => ({ method: 'POST', url: '/api/user/insert', body: { nickName } }),
    table: 'users',
    column: 'nick_name',
  },
  {
    name: 'user realName (insert)',
    label: NAME_LABELS.realName,
    send: (realName) => ({
      method: 'POST',
      url: '/api/user/insert',
      body: { nickName: `u${uniq()}`, realName },
    }),
    table: 'users',
    column: 'real_name',
  },
  {
    name: 'role roleName',
    label: NAME_LABELS.roleName,
    send: (roleName) => ({ method: 'POST', url: '/api/role/insert', body: { roleName } }),
    table: 'roles',
    column: 'role_name',
  },
  {
    name: 'built-in role roleName',
    label: NAME_LABELS.roleName,
    send: (roleName) => ({ method: 'POST', url: '/api/role/admin/insert', body: { roleName } }),
    table: 'roles',
    column: 'role_name',
  },
  {
    name: 'group groupName',
    label: NAME_LABELS.groupName,
    send: (groupName) => ({ method: 'POST', url: '/api/user_groups/insert', body: { groupName, status: 1 } }),
    table: 'user_groups',
    column: 'group_name',
  },
  {
    name: 'department organizationName',
    label: NAME_LABELS.organizationName,
    send: (organizationName) => ({
      method: 'POST',
      url: '/api/org/insert',
      body: { organizationName, parent: rootOrgId, description: null },
    }),
    table: 'organizations',
    column: 'organization_name',
  },
  {
    name: 'job title stationName',
    label: NAME_LABELS.stationName,
    send: (stationName) => ({ method: 'POST', url: '/api/station/insert', body: { stationName, type: 1 } }),
    table: 'stations',
    column: 'station_name',
  },
  {
    name: 'service name',
    label: NAME_LABELS.serviceName,
    // a key of lower-case letters and digits only, unique per call
    send: (name) => ({ method: 'POST', url: '/api/service/insert', body: { key: `svc${uniqKey()}`, name } }),
    table: 'services',
    column: 'name',
  },
  {
    name: 'permission chName',
    label: NAME_LABELS.chName,
    send: (chName) => ({ method: 'POST', url: '/api/auth/insert', body: authForm({ chName }) }),
    table: 'auths',
    column: 'ch_name',
  },
  {
    name: 'permission enName',
    label: NAME_LABELS.enName,
    send: (enName) => ({ method: 'POST', url: '/api/auth/insert', body: authForm({ enName }) }),
    table: 'auths',
    column: 'en_name',
  },
]

function authForm(over: Record<string, unknown>) {
  return {
    chName: `权限${uniq()}`,
    enName: `auth${uniq()}`,
    parentCode: 'auth',
    seq: 1,
    status: 1,
    type: 3,
    urlPatternInfos: [],
    ...over,
  }
}

async function send(field: NameField, value: string) {
  const { method, url, body } = field.send(value)
  return t.call(method, url, { token: t.adminToken, body })
}

async function storedNames(field: NameField): Promise<string[]> {
  const rows = await queryRows<{ name: string | null }>(
    t.db,
    sql`select ${sql.identifier(field.column)} as name from ${sql.identifier(field.table)}`,
  )
  return rows.map((r) => r.name).filter((n): n is string => n !== null)
}

async function rowCount(table: string): Promise<number> {
  const [row] = await queryRows<{ n: number | string }>(
    t.db,
    sql`select count(*) as n from ${sql.identifier(table)}`,
  )
  return Number(row.n)
}

type Kind = keyof typeof nameMessages

/** The alphabet of tricks, each put inside a name (`ab<trick>cd`) or given whole, and what it is refused as. */
const TRICKS: [string, string, Kind][] = [
  ['zero width space U+200B', 'ab\u200bcd', 'invisible'],
  ['zero width non-joiner U+200C', 'ab\u200ccd', 'invisible'],
  ['zero width joiner U+200D', 'ab\u200dcd', 'invisible'],
  ['left-to-right mark U+200E', 'ab\u200ecd', 'invisible'],
  ['right-to-left mark U+200F', 'ab\u200fcd', 'invisible'],
  ['LRE U+202A', 'ab\u202acd', 'invisible'],
  ['RLE U+202B', 'ab\u202bcd', 'invisible'],
  ['PDF U+202C', 'ab\u202ccd', 'invisible'],
  ['LRO U+202D', 'ab\u202dcd', 'invisible'],
  ['RLO U+202E', 'ab\u202ecd', 'invisible'],
  ['word joiner U+2060', 'ab\u2060cd', 'invisible'],
  ['function application U+2061', 'ab\u2061cd', 'invisible'],
  ['invisible times U+2062', 'ab\u2062cd', 'invisible'],
  ['invisible separator U+2063', 'ab\u2063cd', 'invisible'],
  ['invisible plus U+2064', 'ab\u2064cd', 'invisible'],
  ['LRI U+2066', 'ab\u2066cd', 'invisible'],
  ['RLI U+2067', 'ab\u2067cd', 'invisible'],
  ['FSI U+2068', 'ab\u2068cd', 'invisible'],
  ['PDI U+2069', 'ab\u2069cd', 'invisible'],
  ['byte order mark U+FEFF', 'ab\ufeffcd', 'invisible'],
  ['soft hyphen U+00AD', 'ab\u00adcd', 'invisible'],
  ['combining grapheme joiner U+034F', 'ab\u034fcd', 'invisible'],
  ['Arabic letter mark U+061C', 'ab\u061ccd', 'invisible'],
  ['Mongolian vowel separator U+180E', 'ab\u180ecd', 'invisible'],
  ['Hangul filler U+3164', 'ab\u3164cd', 'invisible'],
  ['half-width Hangul filler U+FFA0', 'ab\uffa0cd', 'invisible'],
  ['Hangul choseong filler U+115F', 'ab\u115fcd', 'invisible'],
  ['variation selector U+FE0F', 'ab\ufe0fcd', 'invisible'],
  ['interlinear annotation U+FFF9', 'ab\ufff9cd', 'invisible'],
  ['tag letter U+E0041', 'ab\u{e0041}cd', 'invisible'],
  ['language tag U+E0001', 'ab\u{e0001}cd', 'invisible'],
  ['musical symbol begin beam U+1D173', 'ab\u{1d173}cd', 'invisible'],
  ['a name of only a zero width space', '\u200b', 'invisible'],
  ['tab', 'ab\tcd', 'invisible'],
  ['line feed', 'ab\ncd', 'invisible'],
  ['carriage return', 'ab\rcd', 'invisible'],
  ['next line U+0085', 'ab\u0085cd', 'invisible'],
  ['line separator U+2028', 'ab\u2028cd', 'invisible'],
  ['paragraph separator U+2029', 'ab\u2029cd', 'invisible'],
  ['Ogham space mark U+1680', 'ab\u1680cd', 'invisible'],
  ['private use U+E000', 'ab\ue000cd', 'unusable'],
  ['supplementary private use U+F0000', 'ab\u{f0000}cd', 'unusable'],
  ['non-character U+FDD0', 'ab\ufdd0cd', 'unusable'],
  ['non-character U+FFFF', 'ab\uffffcd', 'unusable'],
  ['unassigned U+0378', 'ab\u0378cd', 'unusable'],
  ['lone surrogate', 'ab\ud800cd', 'unusable'],
  ['Cyrillic а among Latin letters', '\u0430dmin', 'mixedScripts'],
  ['Greek ο among Latin letters', 'r\u03bfot', 'mixedScripts'],
  ['micro sign (NFKC Greek μ) with Latin', '\u00b5admin', 'mixedScripts'],
  ['a combining mark at the start', '\u0301abcd', 'looseMarks'],
  ['stacked combining marks', 'ab\u0300\u0316\u0317\u0318\u0319cd', 'looseMarks'],
]

describe('every name field refuses invisible, format and look-alike characters (400, nothing stored)', () => {
  for (const field of FIELDS) {
    it(field.name, async () => {
      const before = await rowCount(field.table)
      const namesBefore = await storedNames(field)
      for (const [trick, value, kind] of TRICKS) {
        const res = await send(field, value)
        expect(res.status, `${trick}: ${res.body.msg}`).toBe(400)
        expect(res.body, trick).toEqual({ code: 400, msg: nameMessages[kind](field.label), data: null })
      }
      expect(await rowCount(field.table)).toBe(before)
      expect(await storedNames(field)).toEqual(namesBefore)
    })
  }

  it('on updates too: a user renaming itself admin + zero width space is refused and keeps its name', async () => {
    const me = await t.userWithCodes(['user', 'user:edit'])
    const [row] = await queryRows<{ nick_name: string }>(
      t.db,
      sql`select nick_name from users where id = ${me.id}`,
    )
    const res = await t.call('PUT', '/api/user/update', {
      token: me.token,
      body: { id: me.id, nickName: 'admin\u200b', status: 1 },
    })
    expect(res.body).toEqual({ code: 400, msg: nameMessages.invisible(NAME_LABELS.nickName), data: null })
    const [after] = await queryRows<{ nick_name: string }>(
      t.db,
      sql`select nick_name from users where id = ${me.id}`,
    )
    expect(after.nick_name).toBe(row.nick_name)
  })

  it('the other update routes refuse the same way', async () => {
    const role = await t.call('POST', '/api/role/insert', {
      token: t.adminToken,
      body: { roleName: `r${uniq()}` },
    })
    const group = await t.call('POST', '/api/user_groups/insert', {
      token: t.adminToken,
      body: { groupName: `g${uniq()}`, status: 1 },
    })
    const station = await t.call('POST', '/api/station/insert', {
      token: t.adminToken,
      body: { stationName: `s${uniq()}`, type: 1 },
    })
    const org = await t.call('POST', '/api/org/insert', {
      token: t.adminToken,
      body: { organizationName: `o${uniq()}`, parent: rootOrgId, description: null },
    })
    const updates: [string, Record<string, unknown>, string][] = [
      ['/api/role/update', { id: role.body.data, roleName: 'ro\u202eot', status: 1 }, NAME_LABELS.roleName],
      [
        '/api/role/admin/update',
        { id: role.body.data, roleName: 'ro\u202eot', status: 1, type: 2 },
        NAME_LABELS.roleName,
      ],
      [
        '/api/user_groups/update',
        { id: group.body.data, groupName: 'g\u2060x', status: 1 },
        NAME_LABELS.groupName,
      ],
      [
        '/api/station/update',
        { id: station.body.data, stationName: 's\ufeffx', type: 1 },
        NAME_LABELS.stationName,
      ],
      [
        '/api/org/update',
        { id: org.body.data, organizationName: 'o\u00adx', description: null },
        NAME_LABELS.organizationName,
      ],
      [
        '/api/auth/update',
        { code: 'user', ...authForm({ chName: '用户\u200d管理' }), parentCode: 'access' },
        NAME_LABELS.chName,
      ],
    ]
    for (const [url, body, label] of updates) {
      const res = await t.call('PUT', url, { token: t.adminToken, body })
      expect(res.body, url).toEqual({ code: 400, msg: nameMessages.invisible(label), data: null })
    }
  })
})

describe('names are stored NFKC-normalised', () => {
  const CASES: [string, string][] = [
    ['ａｂｃ１２３', 'abc123'],
    ['ｶﾀｶﾅ', 'カタカナ'],
    ['㈱研发', '(株)研发'],
    ['①号', '1号'],
    ['ﬁle', 'file'],
    ['e\u0301clair', 'éclair'],
    ['\u212bngstr\u00f6m', '\u00c5ngstr\u00f6m'],
    ['\u3000中文\u3000名称', '中文 名称'],
    ['  two   spaces\u00a0 here', 'two spaces here'],
    ['Алексей', 'Алексей'],
    ['Ωμέγα', 'Ωμέγα'],
    ['张三abc', '张三abc'],
  ]
  for (const field of FIELDS) {
    it(field.name, async () => {
      for (const [typed, stored] of CASES) {
        const suffix = uniqDigits()
        const res = await send(field, `${typed}${suffix}`)
        expect(res.status, `${typed}: ${res.body.msg}`).toBe(200)
        expect(await storedNames(field)).toContain(`${stored}${suffix}`)
      }
    })
  }

  it('a full-width hyphen in a department name is the hyphen the rule refuses', async () => {
    const res = await send(
      FIELDS.find((f) => f.table === 'organizations')!,
      `研发－${uniq()}`,
    )
    expect(res.body).toEqual({ code: 400, msg: MSG.orgNameNoHyphen, data: null })
  })

  it('a name that normalises to an existing one is a duplicate', async () => {
    const res = await t.call('POST', '/api/user/insert', {
      token: t.adminToken,
      body: { nickName: 'ａｄｍｉｎ' },
    })
    expect(res.status).toBe(409)
    const roleName = `dup${uniq()}`
    expect(
      (await t.call('POST', '/api/role/insert', { token: t.adminToken, body: { roleName } })).status,
    ).toBe(200)
    const again = await t.call('POST', '/api/role/insert', {
      token: t.adminToken,
      body: {
        roleName: ` ${roleName.replace(/[a-z0-9]/g, (c) => String.fromCodePoint(c.codePointAt(0)! + 0xfee0))}`,
      },
    })
    expect(again.status).toBe(409)
  })

  it('a name that grows past the limit once normalised is refused with the field message', async () => {
    // U+FDFA is one character that NFKC spells out as 18
    const res = await send(FIELDS[2], '\ufdfa'.repeat(4))
    expect(res.body).toEqual({ code: 400, msg: MSG.roleNameRequired, data: null })
  })
})

describe('sign-in and searches normalise the typed name the same way', () => {
  it('ａｄｍｉｎ signs in as admin; admin + zero width space is an unknown account', async () => {
    const full = await t.call('POST', '/api/login', {
      body: { nickName: 'ａｄｍｉｎ', password: TEST_ADMIN_PASSWORD },
    })
    expect(full.status).toBe(200)
    expect(full.body.data.user.nickName).toBe('admin')
    const spaced = await t.call('POST', '/api/login', {
      body: { nickName: '\u3000admin ', password: TEST_ADMIN_PASSWORD },
    })
    expect(spaced.status).toBe(200)
    const hidden = await t.call('POST', '/api/login', {
      body: { nickName: 'admin\u200b', password: TEST_ADMIN_PASSWORD },
    })
    expect(hidden.body).toEqual({ code: 401, msg: MSG.loginFailed, data: null })
    // the login log names the account as stored
    const logs = await t.call('POST', '/api/log/login/list', {
      token: t.adminToken,
      body: { nickName: 'ａｄｍ', pageSize: 50 },
    })
    expect(logs.status).toBe(200)
    expect(logs.body.data.list.length).toBeGreaterThan(0)
    expect(logs.body.data.list.every((r: { nickName: string }) => r.nickName.startsWith('adm'))).toBe(true)
  })

  it('list searches find names typed in another compatibility form', async () => {
    const users = await t.call('POST', '/api/user/list', {
      token: t.adminToken,
      body: { nickName: 'ａｄｍｉｎ' },
    })
    expect(users.body.data.list.map((u: { nickName: string }) => u.nickName)).toContain('admin')
    const roles = await t.call('POST', '/api/role/listall', {
      token: t.adminToken,
      body: { roleName: '超级管理员\u3000' },
    })
    expect(roles.body.data.list.length).toBeGreaterThan(0)
  })

  it('the operation log operator filter matches the normalised name', async () => {
    await t.call('POST', '/api/role/insert', { token: t.adminToken, body: { roleName: `op${uniq()}` } })
    const res = await t.call('POST', '/api/log/operation/list', {
      token: t.adminToken,
      body: { operatorName: 'ａｄｍ', pageSize: 5 },
    })
    expect(res.status).toBe(200)
    expect(res.body.data.list.length).toBeGreaterThan(0)
    expect(res.body.data.list.every((r: { operatorName: string }) => r.operatorName === 'admin')).toBe(true)
  })
})

describe('property: whatever is typed, a stored name is clean', () => {
  /** Names built from ordinary letters and the characters tricks are made of. */
  const piece = fc.oneof(
    {
      arbitrary: fc.constantFrom(
        'a',
        'Z',
        '张',
        '三',
        ' ',
        '-',
        '1',
        'é',
        'а',
        'ο',
        'µ',
        'ｶ',
        'ａ',
        '①',
        '㈱',
        '\u3000',
      ),
      weight: 12,
    },
    fc.constantFrom(
      '\u200b',
      '\u200d',
      '\u202e',
      '\u2066',
      '\ufeff',
      '\u00ad',
      '\u034f',
      '\u0301',
      '\ufe0f',
      '\u3164',
      '\u{e0041}',
      '\t',
      '\n',
      '\u2028',
      '\ue000',
      '\ud800',
      '\u0378',
    ),
    // any code point at all (fast-check's 'binary' strings are slow to make)
    fc.integer({ min: 0, max: 0x10ffff }).map((point) => String.fromCodePoint(point)),
  )
  const typed = fc.array(piece, { minLength: 1, maxLength: 12 }).map((parts) => parts.join(''))

  it('no stored name holds a format or default-ignorable character, and every one is NFKC-stable', async () => {
    const answers = { stored: 0, refused: 0 }
    await fc.assert(
      fc.asyncProperty(typed, fc.constantFrom(...FIELDS), async (value, field) => {
        const before = await rowCount(field.table)
        const res = await send(field, `${value}${uniqDigits()}`)
        expect(res.status, `${JSON.stringify(value)} → ${res.status} ${res.body.msg}`).toBeLessThan(500)
        if (res.status === 200) answers.stored++
        else {
          answers.refused++
          expect(await rowCount(field.table)).toBe(before)
        }
      }),
      { numRuns: t.database.kind === 'postgres' ? 300 : 150 },
    )
    // both sides were exercised: names stored and names refused
    expect(answers.stored).toBeGreaterThan(10)
    expect(answers.refused).toBeGreaterThan(10)
    for (const field of FIELDS) {
      for (const name of await storedNames(field)) {
        expect(/[\p{Cf}\p{Default_Ignorable_Code_Point}]/u.test(name), JSON.stringify(name)).toBe(false)
        expect(name.normalize('NFKC'), JSON.stringify(name)).toBe(name)
        expect(isCleanName(name), JSON.stringify(name)).toBe(true)
        expect(normalizeName(name)).toBe(name)
      }
    }
  })
})
