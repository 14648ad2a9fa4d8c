import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { loginLogs, operationLogs } from '../src/db/audit-schema'
import { eq, sql } from 'drizzle-orm'
import type { PgTable } from 'drizzle-orm/pg-core'
import { isValidMobile } from '@amg/contract'
import { openDatabase, queryRows } from '../src/db/connection'
import {
  organizations,
  positions,
  positionUsers,
  roleAuths,
  roles,
  services,
  stations,
  userGroups,
  userGroupUsers,
  userRoles,
  users,
} from '../src/db/schema'
import {
  DEMO_ACCOUNTS,
  DEMO_MARKER_ORG,
  DEMO_SERVICE,
  DemoDataExistsError,
  parseDemoArgs,
  seedDemo,
  type DemoSummary,
} from '../src/seed/demo'
import { requireWritableUsers } from '../src/auth/user-scope'
import { createTestApp, type TestApp } from './helpers/app'
import { TEST_USER_PASSWORD } from './helpers/constants'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..')

let t: TestApp
let summary: DemoSummary
const USERS = 120

const count = async (table: PgTable) =>
  (await t.db.select({ n: sql<number>`count(*)::int` }).from(table))[0].n

beforeAll(async () => {
  t = await createTestApp()
  summary = await seedDemo(t.db, { users: USERS, password: TEST_USER_PASSWORD })
})
afterAll(async () => t.close())

describe('seedDemo', () => {
  it('builds a company: a department tree 4 levels under the root, dozens of job titles, positions', async () => {
    expect(await count(organizations)).toBe(1 + summary.organizations)
    expect(summary.organizations).toBeGreaterThanOrEqual(30)
    expect(await count(stations)).toBe(summary.stations)
    expect(summary.stations).toBeGreaterThanOrEqual(24)
    expect(await count(positions)).toBe(summary.positions)
    expect(summary.positions).toBeGreaterThan(summary.organizations)

    const [depth] = await queryRows<{ depth: number }>(
      t.db,
      sql`with recursive tree(id, depth) as (
            select id, 0 from organizations where parent is null
            union all select o.id, tree.depth + 1 from organizations o join tree on o.parent = tree.id)
          select max(depth)::int as depth from tree`,
    )
    expect(depth.depth).toBe(4)
    const names = (await t.db.select({ name: organizations.organizationName }).from(organizations)).map(
      (r) => r.name,
    )
    expect(names).toEqual(expect.arrayContaining([DEMO_MARKER_ORG, '前端组', '市场部', '财务部', '支付小组']))
    expect(names.every((n) => !n.includes('-'))).toBe(true)
  })

  it('creates exactly the users asked for, with Chinese names, valid mobiles and the initial password', async () => {
    expect(summary.users).toBe(USERS)
    expect(await count(users)).toBe(1 + USERS) // + the seeded admin
    const rows = await t.db
      .select()
      .from(users)
      .where(sql`${users.nickName} <> 'admin'`)
    expect(rows.every((u) => u.mobile && isValidMobile(u.mobile))).toBe(true)
    expect(rows.every((u) => /^[\u4e00-\u9fa5]{2,4}$/.test(u.realName ?? ''))).toBe(true)
    expect(new Set(rows.map((u) => u.nickName)).size).toBe(USERS)
    // hashed once and reused
    expect(new Set(rows.map((u) => u.passwordHash)).size).toBe(1)
    expect(rows.every((u) => u.passwordIsInitial === 1)).toBe(true)
    expect(rows.filter((u) => u.status === 1).length).toBeGreaterThan(USERS * 0.9)
  })

  it('links users to positions, roles and groups; roles hold codes of the tree', async () => {
    const [{ holders }] = await queryRows<{ holders: number }>(
      t.db,
      sql`select count(distinct user_id)::int as holders from position_users`,
    )
    expect(holders).toBe(USERS)
    expect(await count(positionUsers)).toBe(summary.positionUsers)
    expect(await count(userRoles)).toBe(1 + summary.userRoles)
    expect(await count(userGroups)).toBe(summary.userGroups)
    expect(summary.userGroups).toBeGreaterThanOrEqual(4)
    expect(await count(userGroupUsers)).toBe(summary.userGroupUsers)
    expect(summary.positionRoles).toBeGreaterThanOrEqual(summary.positions)
    // a month of history, so the log pages are not empty on a first look
    expect(summary.operationLogs).toBeGreaterThan(20)
    expect(summary.loginLogs).toBeGreaterThan(50)
    expect(await count(operationLogs)).toBe(summary.operationLogs)
    expect(await count(loginLogs)).toBeGreaterThanOrEqual(summary.loginLogs) // and the test's own sign-in

    const ordinary = await t.db.select().from(roles).where(eq(roles.type, 3))
    expect(ordinary.length).toBe(summary.roles)
    const hr = ordinary.find((r) => r.roleName === '人事专员')!
    const hrCodes = (await t.db.select().from(roleAuths).where(eq(roleAuths.roleId, hr.id))).map(
      (r) => r.authCode,
    )
    expect(hrCodes).toEqual(expect.arrayContaining(['access', 'user', 'user:add', 'user:edit']))
    const audit = ordinary.find((r) => r.roleName === '只读审计')!
    const auditCodes = (await t.db.select().from(roleAuths).where(eq(roleAuths.roleId, audit.id))).map(
      (r) => r.authCode,
    )
    expect(auditCodes.some((c) => c.includes(':'))).toBe(false)
  })

  it('invents history only its operators could have made: each change allowed by the operator’s roles, in reach, within power', async () => {
    const { authz, power } = t.app.ctx
    const rows = await t.db.select().from(operationLogs)
    const invented = rows.filter((r) => r.time.getTime() < Date.now() - 3_600_000)
    const changes = invented.filter((r) => r.result === 'success')
    expect(changes.length).toBeGreaterThan(20)
    const names = new Map<number, string>()
    for (const row of changes) {
      const operatorId = row.operatorId!
      names.set(operatorId, row.operatorName!)
      const path = row.path.slice('/api'.length)
      const why = `${row.operatorName} ${row.summary} ${row.method} ${row.path}`
      // the running server's own answers: the call, its data scope over the user, the power it moves
      expect(await authz.can(operatorId, row.method, path), why).toBe(true)
      const scope = (await authz.scopeOf(operatorId, row.method, path))!
      const userId = Number(row.resourceId)
      await expect(
        requireWritableUsers(t.db, { id: operatorId, scope }, [userId]),
        why,
      ).resolves.toBeUndefined()
      const roleIds = row.changes.flatMap((c) =>
        'added' in c ? c.added.filter((a) => a.type === 'role').map((a) => Number(a.id)) : [],
      )
      await expect(
        power.require(t.db, operatorId, { userIds: [userId], roleIds }),
        why,
      ).resolves.toBeUndefined()
    }
    // the read-only auditor and the ordinary employee change nothing; several administrators do
    const operators = new Set(names.values())
    expect(operators.has('demo_audit')).toBe(false)
    expect(operators.has('demo_staff')).toBe(false)
    expect(operators.size).toBeGreaterThan(1)
    // a refusal is someone trying what their roles do not allow
    for (const row of invented.filter((r) => r.result === 'denied'))
      expect(await authz.can(row.operatorId!, row.method, row.path.slice('/api'.length))).toBe(false)
  })

  it('lets a demo user sign in with the initial password and see the permissions of its role', async () => {
    const hr = DEMO_ACCOUNTS[0]
    const token = await t.login(hr.nickName, TEST_USER_PASSWORD)
    const me = await t.call('GET', '/api/user/current', { token })
    expect(me.status).toBe(200)
    expect(me.body.data.authCodes).toEqual(expect.arrayContaining(['user', 'user:add', 'file:upload']))
    expect(me.body.data.superAdmin).toBe(false)

    const [someone] = await t.db
      .select({ nickName: users.nickName })
      .from(users)
      .where(
        sql`${users.status} = 1 and ${users.nickName} not like 'demo\\_%' and ${users.nickName} <> 'admin'`,
      )
      .limit(1)
    expect(await t.login(someone.nickName, TEST_USER_PASSWORD)).toBeTruthy()
  })

  it('lets demo_audit read every page, the logs and 权限分析 included, and change nothing', async () => {
    const token = await t.login('demo_audit', TEST_USER_PASSWORD)
    const me = await t.call('GET', '/api/user/current', { token })
    expect(me.body.data.auths).toEqual(
      expect.arrayContaining([
        '/usermanage',
        '/orgmanage',
        '/operlog',
        '/loginlog',
        '/online',
        '/authzanalysis',
      ]),
    )
    const [staff] = await t.db.select().from(users).where(eq(users.nickName, 'demo_staff'))
    const reads = [
      await t.call('POST', '/api/log/operation/list', { token, body: { pageNum: 1, pageSize: 10 } }),
      await t.call('POST', '/api/log/login/list', { token, body: { pageNum: 1, pageSize: 10 } }),
      await t.call('POST', '/api/session/online/list', { token, body: { pageNum: 1, pageSize: 10 } }),
      await t.call('GET', `/api/authz/effective?userId=${staff.id}`, { token }),
    ]
    expect(reads.map((r) => r.status)).toEqual([200, 200, 200, 200])
    const writes = [
      await t.call('PUT', '/api/user/update', {
        token,
        body: { id: staff.id, nickName: 'demo_staff', realName: '张小北', status: 2 },
      }),
      await t.call('GET', '/api/log/operation/export', { token }),
      await t.call('POST', '/api/authz/check', {
        token,
        body: { userId: staff.id, method: 'GET', path: '/api/user/list' },
      }),
    ]
    expect(writes.map((r) => r.status)).toEqual([403, 403, 403])
    const [after] = await t.db.select().from(users).where(eq(users.id, staff.id))
    expect(after.status).toBe(1)
  })

  it('lets demo_hr manage ordinary staff but not a stronger administrator (DESIGN.md §6a)', async () => {
    const token = await t.login('demo_hr', TEST_USER_PASSWORD)
    const [staff] = await t.db.select().from(users).where(eq(users.nickName, 'demo_staff'))
    const edit = await t.call('PUT', '/api/user/update', {
      token,
      body: { id: staff.id, nickName: 'demo_staff', realName: '张小北', status: 1 },
    })
    expect(edit.status).toBe(200)
    const [org] = await t.db.select().from(users).where(eq(users.nickName, 'demo_org'))
    const refused = await t.call('PUT', '/api/user/update', {
      token,
      body: { id: org.id, nickName: 'demo_org', status: 2 },
    })
    expect(refused.status).toBe(403)
    expect(refused.body.msg).toMatch(/^不能授予或管理超出自己权限的内容：/)
  })

  it('adds the demo service orders with its own subtree, and a role that opens it and nothing of this server', async () => {
    const [orders] = await t.db.select().from(services).where(eq(services.key, DEMO_SERVICE.key))
    expect(orders).toMatchObject({ name: '订单服务', rootCode: 'orders', builtIn: 0 })
    const token = await t.login('demo_orders', TEST_USER_PASSWORD)
    const forward = (service: string, method: string, uri: string) =>
      t.call('GET', `/api/authz/forward/${service}`, {
        headers: { 'x-auth-token': token, 'x-original-method': method, 'x-original-uri': uri },
      })
    expect((await forward('orders', 'GET', '/api/orders/1024')).status).toBe(200)
    expect((await forward('orders', 'POST', '/api/orders')).status).toBe(200)
    expect((await forward('orders', 'DELETE', '/api/orders/1024')).status).toBe(403)
    expect((await forward('ams', 'GET', '/api/orders/1024')).status).toBe(403)
    const me = await t.call('GET', '/api/user/current', { token })
    expect(me.body.data.authCodes).toEqual(expect.arrayContaining(['orders:view', 'orders:create']))
    expect(me.body.data.auths).toEqual([])
  })

  it('gives demo_orders her own orders to create (仅本人) and her department’s to read (本部门)', async () => {
    const token = await t.login('demo_orders', TEST_USER_PASSWORD)
    const [own] = await queryRows<{ org_id: number }>(
      t.db,
      sql`select p.org_id from position_users pu join positions p on p.id = pu.position_id
        join users u on u.id = pu.user_id where u.nick_name = 'demo_orders' and p.status = 1 order by p.org_id`,
    )
    const check = async (method: string, path: string) => {
      const res = await t.call('POST', '/api/authz/check', {
        token,
        body: { method, path, service: 'orders', withScope: true },
      })
      expect(res.status, res.body.msg).toBe(200)
      return res.body.data.scope
    }
    expect(await check('POST', '/api/orders')).toEqual({ all: false, self: true, orgIds: [] })
    const read = await check('GET', '/api/orders/1024')
    expect(read.all).toBe(false)
    expect(read.self).toBe(false)
    expect(read.orgIds).toContain(Number(own.org_id))

    // what a gateway hands the service: 商务组 has no department below it, so its whole subtree, `tree:`
    const header = async (method: string, uri: string) => {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/authz/forward/orders',
        headers: { 'x-auth-token': token, 'x-original-method': method, 'x-original-uri': uri },
      })
      expect(res.statusCode).toBe(200)
      return res.headers['x-auth-data-scope']
    }
    expect(await header('POST', '/api/orders')).toBe('self')
    const readHeader = await header('GET', '/api/orders/1024')
    expect(readHeader).toBe(`tree:${own.org_id}`)
    // and the README's example is that header (its id is a fresh demo's; this database holds more)
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8')
    const example = /`X-Auth-Data-Scope: ((?:tree|org):\d+)` for reading/.exec(readme)?.[1]
    expect(example?.replace(/\d+$/, '')).toBe(readHeader?.toString().replace(/\d+$/, ''))
  })

  it('makes demo_rd_admin and demo_sales_admin administrators of their own department and below', async () => {
    for (const [nickName, dept] of [
      ['demo_rd_admin', DEMO_MARKER_ORG],
      ['demo_sales_admin', '销售部'],
    ] as const) {
      const token = await t.login(nickName, TEST_USER_PASSWORD)
      const me = await t.call('GET', '/api/user/current', { token })
      expect(me.status).toBe(200)
      expect(me.body.data.superAdmin).toBe(false)
      expect(me.body.data.manageScope).toEqual({
        self: false,
        roots: [expect.objectContaining({ name: dept, withSubtree: true })],
      })
    }
  })

  it('refuses a second run with a clear message and writes nothing', async () => {
    const before = await count(users)
    await expect(seedDemo(t.db, { users: 5, password: TEST_USER_PASSWORD })).rejects.toThrow(
      DemoDataExistsError,
    )
    await expect(seedDemo(t.db, { users: 5, password: TEST_USER_PASSWORD })).rejects.toThrow(/演示数据已存在/)
    expect(await count(users)).toBe(before)
  })
})

describe('seed:demo arguments', () => {
  it('takes --users N or --users=N and refuses anything else', () => {
    expect(parseDemoArgs([])).toEqual({ users: 300 })
    expect(parseDemoArgs(['--users', '100000'])).toEqual({ users: 100000 })
    expect(parseDemoArgs(['--users=2500'])).toEqual({ users: 2500 })
    expect(() => parseDemoArgs(['--users', 'abc'])).toThrow(/--users/)
    expect(() => parseDemoArgs(['--users', '0'])).toThrow(/--users/)
    expect(() => parseDemoArgs(['--user', '5'])).toThrow(/不认识的参数/)
  })
})

describe.skipIf(!!inject('pgTemplate'))('npm run seed:demo (the command, on an embedded database)', () => {
  it('hashes the passwords it writes at PASSWORD_HASH_COST, as the server it seeds for would', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'amg-seed-demo-'))
    try {
      execFileSync(process.execPath, ['--import', 'tsx', 'apps/server/src/seed/demo.ts', '--users', '8'], {
        cwd: ROOT,
        env: {
          ...process.env,
          DATA_DIR: dataDir,
          DATABASE_URL: '',
          INITIAL_ADMIN_PASSWORD: 'Seed@Admin2024',
          INITIAL_USER_PASSWORD: TEST_USER_PASSWORD,
          PASSWORD_HASH_COST: '15',
          LOG_LEVEL: 'warn',
        },
        stdio: 'ignore',
      })
      const database = await openDatabase({ dataDir })
      try {
        const hashes = await database.db
          .select({ nickName: users.nickName, hash: users.passwordHash })
          .from(users)
        // the admin, the seven named accounts and one generated person
        expect(hashes.map((h) => h.nickName)).toEqual(expect.arrayContaining(['admin', 'demo_staff']))
        expect(hashes.length).toBeGreaterThanOrEqual(8)
        // scrypt$N$r$p$salt$hash: N = 2^15
        for (const { nickName, hash } of hashes) expect(hash.split('$')[1], nickName).toBe(String(2 ** 15))
      } finally {
        await database.close()
      }
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true })
    }
  }, 120_000)
})
