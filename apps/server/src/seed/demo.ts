/**
 * Demo data (`npm run seed:demo [-- --users 100000]`): a realistic Chinese company so a newcomer
 * sees a living console — a department tree four levels deep, dozens of job titles, the positions
 * pairing them, users with Chinese names and valid mobiles, user groups, ordinary roles with
 * sensible permissions, and the links between all of them.
 *
 * Everything is written in one transaction, in batches, with the password hashed once; the run
 * refuses when demo data is already there (the marker department DEMO_MARKER_ORG exists).
 */
import { pathToFileURL } from 'node:url'
import { and, eq, isNull } from 'drizzle-orm'
import type { Db } from '../db/connection'
import { organizations, users } from '../db/schema'
import { ADMIN_NICK_NAME } from './base'
import { configurePasswordHashing, hashPassword } from '../auth/password'
import { seedDemoHistory } from './demo-history'
import { DEMO_ACCOUNTS, DEMO_MARKER_ORG } from './demo-company'
import { random, type DemoRun } from './demo-run'
import { seedPlaces } from './demo-places'
import { seedServiceAndRoles } from './demo-access'
import { seedPeople } from './demo-people'
import { seedRoleLinks } from './demo-links'

// the company's data lives in demo-company.ts, demo-roles.ts and demo-names.ts
export { DEMO_ACCOUNTS, DEMO_MARKER_ORG, DEMO_SERVICE } from './demo-company'

export const DEFAULT_DEMO_USERS = 300
export const MAX_DEMO_USERS = 1_000_000

export interface DemoOptions {
  /** how many users to create (the DEMO_ACCOUNTS first) */
  users?: number
  /** password of every demo user: the configured initial user password */
  password: string
  /** seed of the pseudo-random choices, so two runs build the same company */
  randomSeed?: number
  log?: (line: string) => void
}

export interface DemoSummary {
  organizations: number
  stations: number
  positions: number
  users: number
  userGroups: number
  roles: number
  userRoles: number
  userGroupUsers: number
  positionUsers: number
  positionRoles: number
  userGroupRoles: number
  operationLogs: number
  loginLogs: number
}

export class DemoDataExistsError extends Error {}

export async function seedDemo(db: Db, options: DemoOptions): Promise<DemoSummary> {
  const total = options.users ?? DEFAULT_DEMO_USERS
  if (!Number.isInteger(total) || total < 1 || total > MAX_DEMO_USERS) {
    throw new Error(`用户数量必须是 1 到 ${MAX_DEMO_USERS} 之间的整数`)
  }
  const log = options.log ?? (() => {})
  const rnd = random(options.randomSeed ?? 20240601)
  // One hash for everyone: hashing is deliberately slow, and the password is the same.
  const passwordHash = await hashPassword(options.password)

  return db.transaction(async (tx) => {
    const [root] = await tx
      .select({ id: organizations.id })
      .from(organizations)
      .where(isNull(organizations.parent))
      .orderBy(organizations.id)
      .limit(1)
    if (!root) throw new Error('没有根部门：请先启动一次服务（或运行基础数据初始化）')
    const [marker] = await tx
      .select({ id: organizations.id })
      .from(organizations)
      .where(and(eq(organizations.parent, root.id), eq(organizations.organizationName, DEMO_MARKER_ORG)))
    if (marker) {
      throw new DemoDataExistsError(
        `演示数据已存在（根部门下已有“${DEMO_MARKER_ORG}”），本次没有写入任何数据。如需重新生成，请使用新的数据目录（DATA_DIR）或新的数据库。`,
      )
    }
    const [admin] = await tx.select({ id: users.id }).from(users).where(eq(users.nickName, ADMIN_NICK_NAME))
    const operator = admin?.id ?? null
    const run: DemoRun = { tx, rnd, ops: { createUserId: operator, updateUserId: operator }, log }

    const places = await seedPlaces(run, root.id)
    const access = await seedServiceAndRoles(run)
    const people = await seedPeople(run, total, passwordHash, places)
    const links = await seedRoleLinks(run, places, people, access.roleId)
    const history = await seedDemoHistory(
      tx,
      rnd,
      DEMO_ACCOUNTS.map((a) => a.nickName),
    )
    log(`操作日志 ${history.operations} 条，登录日志 ${history.logins} 条`)

    return {
      organizations: places.orgCount,
      stations: places.titles,
      positions: places.positionRows.length,
      users: people.userIds.length,
      userGroups: links.userGroups,
      roles: access.roles,
      userRoles: links.userRoles,
      userGroupUsers: links.userGroupUsers,
      positionUsers: people.positionUsers,
      positionRoles: links.positionRoles,
      userGroupRoles: links.userGroupRoles,
      operationLogs: history.operations,
      loginLogs: history.logins,
    }
  })
}

// ---------------------------------------------------------------------------------------------
// Command line: npm run seed:demo [-- --users N]
// ---------------------------------------------------------------------------------------------

export function parseDemoArgs(argv: string[]): { users: number } {
  let users = DEFAULT_DEMO_USERS
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    let value: string | undefined
    if (arg === '--users') value = argv[++i]
    else if (arg.startsWith('--users=')) value = arg.slice('--users='.length)
    else if (arg === '--help' || arg === '-h') throw new UsageError('')
    else throw new UsageError(`不认识的参数：${arg}`)
    const n = Number(value?.replace(/_/g, ''))
    if (!value || !Number.isInteger(n) || n < 1 || n > MAX_DEMO_USERS) {
      throw new UsageError(`--users 需要 1 到 ${MAX_DEMO_USERS} 之间的整数，收到：${value ?? '（空）'}`)
    }
    users = n
  }
  return { users }
}

class UsageError extends Error {}

const USAGE = `用法：npm run seed:demo [-- --users N]
  在服务使用的同一个数据库（DATABASE_URL，未设置时为 DATA_DIR 下的内嵌数据库）中生成演示数据。
  --users N   生成 N 个用户（默认 ${DEFAULT_DEMO_USERS}，最多 ${MAX_DEMO_USERS}）
  注意：内嵌数据库（PGlite）同一时间只能被一个进程打开，运行前请先停止服务。`

async function main() {
  let args: { users: number }
  try {
    args = parseDemoArgs(process.argv.slice(2))
  } catch (err) {
    if (err instanceof UsageError) {
      if (err.message) console.error(err.message)
      console.error(USAGE)
      process.exit(err.message ? 2 : 0)
    }
    throw err
  }
  const { hashingLimits, loadConfig } = await import('../config')
  const { openDatabase } = await import('../db/connection')
  const { seedBase } = await import('./base')
  const config = loadConfig()
  // the passwords it writes are hashed at the cost the server would use (PASSWORD_HASH_COST)
  configurePasswordHashing(config.passwordHashCost, hashingLimits(config))
  const where = config.databaseUrl ? 'DATABASE_URL 指定的 PostgreSQL' : `内嵌数据库 ${config.dataDir}`
  let database
  try {
    database = await openDatabase(
      config.databaseUrl ? { databaseUrl: config.databaseUrl } : { dataDir: config.dataDir },
    )
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err)
    console.error(`无法打开${where}：${reason}`)
    if (!config.databaseUrl) {
      console.error(
        '内嵌数据库在服务运行时不能被其他进程打开：请先停止服务（npm start），再运行 npm run seed:demo。',
      )
    }
    process.exit(1)
  }
  const started = Date.now()
  try {
    console.log(`向${where}写入演示数据（${args.users} 个用户）...`)
    await seedBase(database.db, config)
    const summary = await seedDemo(database.db, {
      users: args.users,
      password: config.initialUserPassword,
      log: (line) => console.log(line),
    })
    console.log(`完成，用时 ${((Date.now() - started) / 1000).toFixed(1)} 秒：`, summary)
    console.log(
      `演示账号：${DEMO_ACCOUNTS.slice(0, args.users)
        .map((a) => `${a.nickName}（${a.roles.join('、')}）`)
        .join('、')}；所有演示用户的密码都是初始密码（INITIAL_USER_PASSWORD）。`,
    )
  } catch (err) {
    console.error(
      err instanceof DemoDataExistsError
        ? err.message
        : `生成演示数据失败：${err instanceof Error ? err.message : err}`,
    )
    process.exitCode = 1
  } finally {
    await database.close()
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err) => {
    console.error(err instanceof Error ? err.message : err)
    process.exit(1)
  })
}
