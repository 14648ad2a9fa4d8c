import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'drizzle-orm'
import { foldName, importDuplicateRows, MSG } from '@amg/contract'
import { queryRows } from '../src/db/connection'
import { ORG_MSG } from '../src/modules/org'
import { ROLE_MSG } from '../src/modules/role'
import { STATION_MSG } from '../src/modules/station/service'
import { USER_MSG } from '../src/modules/user'
import { createTestApp, type TestApp, rootOrgIdOf } from './helpers/app'
import { TEST_ADMIN_PASSWORD, TEST_USER_PASSWORD } from './helpers/constants'
import { csvOf, runImport } from './helpers/workbooks'

/**
 * Names compare without letter case for uniqueness (DESIGN.md §11, second review): `Admin` beside
 * `admin` is 409 with the record's own duplicate message, for every name that identifies a record to
 * a person, on insert, update, import and under concurrent requests; sign-in by name ignores case,
 * and its throttle counts every case form of a name as one account.
 */
let t: TestApp
let rootOrgId: number
let seq = 0
/** digits only: a suffix that mixes no script into a Greek or Cyrillic name */
const digits = () => `${Date.now() % 1_000_000}${seq++}`

beforeAll(async () => {
  t = await createTestApp()
  rootOrgId = await rootOrgIdOf(t.db)
})
afterAll(async () => t.close())

const GROUP_NAME_TAKEN = '用户组名称已存在'

/** One kind of named record: how to make one, rename one, and where its name is stored. */
interface Kind {
  kind: string
  message: string
  insert: (name: string) => { url: string; body: Record<string, unknown> }
  update: (id: number, name: string) => { url: string; body: Record<string, unknown> }
  table: string
  column: string
}

const KINDS: Kind[] = [
  {
    kind: 'user nickName',
    message: USER_MSG.nickNameTaken,
    insert: (nickName) => ({ url: '/api/user/insert', body: { nickName } }),
    update: (id, nickName) => ({ url: '/api/user/update', body: { id, nickName, status: 1 } }),
    table: 'users',
    column: 'nick_name',
  },
  {
    kind: 'role name',
    message: ROLE_MSG.nameExists,
    insert: (roleName) => ({ url: '/api/role/insert', body: { roleName } }),
    update: (id, roleName) => ({ url: '/api/role/update', body: { id, roleName, status: 1 } }),
    table: 'roles',
    column: 'role_name',
  },
  {
    kind: 'group name',
    message: GROUP_NAME_TAKEN,
    insert: (groupName) => ({ url: '/api/user_groups/insert', body: { groupName, status: 1 } }),
    update: (id, groupName) => ({ url: '/api/user_groups/update', body: { id, groupName, status: 1 } }),
    table: 'user_groups',
    column: 'group_name',
  },
  {
    kind: 'job title name',
    message: STATION_MSG.nameExists,
    insert: (stationName) => ({ url: '/api/station/insert', body: { stationName, type: 1 } }),
    update: (id, stationName) => ({ url: '/api/station/update', body: { id, stationName, type: 1 } }),
    table: 'stations',
    column: 'station_name',
  },
  {
    kind: 'department name among siblings',
    message: ORG_MSG.siblingExists,
    insert: (organizationName) => ({
      url: '/api/org/insert',
      body: { organizationName, parent: rootOrgId, description: null },
    }),
    update: (id, organizationName) => ({
      url: '/api/org/update',
      body: { id, organizationName, description: null },
    }),
    table: 'organizations',
    column: 'organization_name',
  },
]

/** Names and a case variant of each: ASCII, Latin with diaeresis, Greek with its final sigma, Cyrillic. */
const PAIRS: [string, string][] = [
  ['Admin', 'admin'],
  ['ops', 'OPS'],
  ['Ärzte', 'ÄRZTE'],
  ['ärzte', 'ÄRZTE'],
  ['σας', 'ΣΑΣ'],
  ['Иван', 'иван'],
]

async function insert(kind: Kind, name: string) {
  const { url, body } = kind.insert(name)
  return t.call('POST', url, { token: t.adminToken, body })
}

/** The stored rows whose name is `name` in any case, as the database folds it. */
async function holders(kind: Kind, name: string) {
  return queryRows<{ id: number; name: string }>(
    t.db,
    sql`select id, ${sql.identifier(kind.column)} as name from ${sql.identifier(kind.table)}
        where amg_name_fold(${sql.identifier(kind.column)}) = amg_name_fold(${name}) order by id`,
  )
}

async function make(kind: Kind, name: string): Promise<number> {
  const res = await insert(kind, name)
  expect(res.status, `${kind.kind} ${name}: ${res.body.msg}`).toBe(200)
  const [row] = await holders(kind, name)
  return row.id
}

describe.each(KINDS)('$kind', (kind) => {
  it('refuses a name that differs from a stored one only in case: 409, nothing stored', async () => {
    for (const pair of PAIRS) {
      const d = digits()
      const [stored, variant] = pair.map((name) => `${name}${d}`)
      await make(kind, stored)
      const res = await insert(kind, variant)
      expect(res.status, `${stored} / ${variant}`).toBe(409)
      expect(res.body.msg).toBe(kind.message)
      expect((await holders(kind, stored)).map((r) => r.name)).toEqual([stored])
    }
  })

  it('refuses renaming another record to it; a record may change the case of its own name', async () => {
    const d = digits()
    const first = await make(kind, `First${d}`)
    const second = await make(kind, `Second${d}`)
    const { url, body } = kind.update(second, `FIRST${d}`)
    const refused = await t.call('PUT', url, { token: t.adminToken, body })
    expect(refused.status).toBe(409)
    expect(refused.body.msg).toBe(kind.message)
    expect((await holders(kind, `first${d}`)).map((r) => r.id)).toEqual([first])

    const own = kind.update(first, `FIRST${d}`)
    const renamed = await t.call('PUT', own.url, { token: t.adminToken, body: own.body })
    expect(renamed.status, renamed.body.msg).toBe(200)
    expect(await holders(kind, `first${d}`)).toEqual([{ id: first, name: `FIRST${d}` }])
  })

  it('lets through names that differ by more than case', async () => {
    const d = digits()
    await make(kind, `Team${d}`)
    await make(kind, `Team${d}x`)
    // İ's lower case is two characters (i and a dot above): it is not i's upper case
    await make(kind, `İnci${d}`)
    await make(kind, `inci${d}`)
  })

  it('answers every case form sent at once with one 200 and 409s, never 500', async () => {
    const d = digits()
    const forms = [`Race${d}`, `RACE${d}`, `race${d}`, `rAcE${d}`]
    const results = await Promise.all(forms.map((name) => insert(kind, name)))
    expect(results.filter((r) => r.status === 200)).toHaveLength(1)
    for (const r of results.filter((r) => r.status !== 200))
      expect(r.body).toMatchObject({ code: 409, msg: kind.message })
    expect(await holders(kind, `race${d}`)).toHaveLength(1)
  })
})

describe('departments', () => {
  it('may share a name in another case under different parents', async () => {
    const d = digits()
    const north = await make(KINDS[4], `North${d}`)
    const south = await make(KINDS[4], `South${d}`)
    for (const [parent, name] of [
      [north, `Sales${d}`],
      [south, `SALES${d}`],
    ] as const) {
      const res = await t.call('POST', '/api/org/insert', {
        token: t.adminToken,
        body: { organizationName: name, parent, description: null },
      })
      expect(res.status, res.body.msg).toBe(200)
    }
  })
})

describe('sign-in by name', () => {
  it('finds the account whatever the case typed; the answer names it as stored', async () => {
    const d = digits()
    const made = await t.call('POST', '/api/user/insert', {
      token: t.adminToken,
      body: { nickName: `Zoë${d}`, password: TEST_USER_PASSWORD },
    })
    expect(made.status, made.body.msg).toBe(200)
    for (const typed of [`Zoë${d}`, `zoë${d}`, `ZOË${d}`, `ｚｏë${d}`]) {
      const res = await t.call('POST', '/api/login', {
        body: { nickName: typed, password: TEST_USER_PASSWORD },
      })
      expect(res.status, typed).toBe(200)
      expect(res.body.data.user.nickName).toBe(`Zoë${d}`)
    }
    const wrong = await t.call('POST', '/api/login', {
      body: { nickName: `ZOË${d}`, password: 'Wrong#Pass0' },
    })
    expect(wrong.body).toEqual({ code: 401, msg: MSG.loginFailed, data: null })
  })
})

describe('the sign-in throttle counts every case form of a name as one account', () => {
  const signIn = (app: TestApp, nickName: string, password: string, remoteAddress: string) =>
    app.app.inject({ method: 'POST', url: '/api/login', payload: { nickName, password }, remoteAddress })

  // five free failures per account and address (login-throttle.test.ts): the sixth is refused
  it.each([
    ['a known account', ['admin', 'Admin', 'ADMIN', 'aDmin', 'adMin'], 'ADMIN'],
    ['an unknown name, answered alike', ['ghost', 'Ghost', 'GHOST', 'gHost', 'ghOst'], 'GhOsT'],
  ])('%s', async (_what, forms, next) => {
    // the first refusal lasts ten minutes, so a slow machine cannot reach the sixth attempt after it
    const own = await createTestApp({ loginFirstWaitSeconds: 600 })
    try {
      for (const form of forms)
        expect((await signIn(own, form, 'Wrong#Pass0', '198.51.100.7')).statusCode).toBe(401)
      expect((await signIn(own, next, 'Wrong#Pass0', '198.51.100.7')).statusCode).toBe(429)
      // the throttled pair waits even with the right password, in any case form
      if (next === 'ADMIN')
        expect((await signIn(own, 'AdMiN', TEST_ADMIN_PASSWORD, '198.51.100.7')).statusCode).toBe(429)
      // another address is not affected
      expect((await signIn(own, 'admin', TEST_ADMIN_PASSWORD, '198.51.100.8')).statusCode).toBe(200)
    } finally {
      await own.close()
    }
  })
})

describe('imports fail the row, never the job', () => {
  const HEADER = ['登录名*', '姓名', '手机号', '状态', '岗位', '角色', '用户组', '初始密码']
  const row = (nickName: string) => [nickName, '', '', '', '', '', '', '']
  const csv = (rows: string[][]) => Buffer.from(csvOf(rows))

  it.each(['insert', 'upsert'])(
    'users (%s): a case variant of a stored name is 用户昵称已存在',
    async (mode) => {
      const d = digits()
      await make(KINDS[0], `Bob${d}`)
      const file = csv([HEADER, row(`bob${d}`), row(`Carl${d}`), row(`CARL${d}`), row(`dave${d}`)])
      const dry = await runImport(t, file, { fileName: 'users.csv', mode, dryRun: true })
      const real = await runImport(t, file, { fileName: 'users.csv', mode })
      expect([...real.result.entries()]).toEqual([...dry.result.entries()])
      expect(real.job).toMatchObject({ status: 'done', total: 4, inserted: 1, failed: 3 })
      const reason = (n: number) => real.result.get(n)?.[9]
      expect(reason(2)).toBe(USER_MSG.nickNameTaken)
      // the same name twice in one file, in two cases: both rows, naming each other
      const twice = importDuplicateRows('登录名', foldName(`Carl${d}`), 3, 4)
      expect([reason(3), reason(4)]).toEqual([twice, twice])
      expect(real.result.get(5)?.[8]).toBe(MSG.importRowInserted)
      expect((await holders(KINDS[0], `bob${d}`)).map((r) => r.name)).toEqual([`Bob${d}`])
      expect(await holders(KINDS[0], `carl${d}`)).toEqual([])
    },
  )

  it('departments and job titles: case variants fail their rows with the duplicate messages', async () => {
    const d = digits()
    await make(KINDS[4], `Sales${d}`)
    await make(KINDS[3], `Dev${d}`)
    const file = csv([
      ['部门全称*', '职位'],
      [`总公司/SALES${d}`, ''],
      [`总公司/Lab${d}`, `DEV${d}`],
      [`总公司/Shop${d}`, ''],
    ])
    const { job, result } = await runImport(t, file, { fileName: 'orgs.csv', path: '/api/org/import' })
    expect(job).toMatchObject({ status: 'done', total: 3, inserted: 1, failed: 2 })
    expect(result.get(2)?.[3]).toBe(ORG_MSG.siblingExists)
    expect(result.get(3)?.[3]).toBe(STATION_MSG.nameExists)
    expect(await holders(KINDS[4], `lab${d}`)).toEqual([])
    expect((await holders(KINDS[3], `dev${d}`)).map((r) => r.name)).toEqual([`Dev${d}`])
  })
})
