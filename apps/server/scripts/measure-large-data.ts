/**
 * Measures the list and tree calls on a large company (DESIGN.md §8: 100,000 users, 10,000
 * departments). Builds a throw-away in-memory database (or uses DATABASE_URL's server, in a fresh
 * database that is dropped after), fills it, and times each call through the real app.
 *
 *   npm run measure -w apps/server [-- --users 100000 --departments 10000]
 */
import { isNull } from 'drizzle-orm'
import { buildApp } from '../src/app'
import { loadConfig } from '../src/config'
import { seedBase } from '../src/db/seed'
import { seedDemo } from '../src/db/seed-demo'
import { organizations } from '../src/db/schema'
import { numberArg, openThrowawayDatabase } from './throwaway-database'

const users = numberArg('users', 100_000)
const departments = numberArg('departments', 10_000)

async function main() {
  const config = loadConfig({}, { logLevel: 'warn' })
  const { database, drop } = await openThrowawayDatabase()
  try {
    let started = Date.now()
    await seedBase(database.db, config)
    await seedDemo(database.db, { users, password: config.initialUserPassword })
    const [root] = await database.db.select().from(organizations).where(isNull(organizations.parent))
    const perParent = 100
    const parents = await database.db
      .insert(organizations)
      .values(
        Array.from({ length: Math.ceil(departments / perParent) }, (_, i) => ({
          organizationName: `测量部门${i}`,
          parent: root.id,
        })),
      )
      .returning({ id: organizations.id })
    const leaves = parents.flatMap((p, i) =>
      Array.from({ length: perParent - 1 }, (_, j) => ({
        organizationName: `测量小组${i}_${j}`,
        parent: p.id,
      })),
    )
    for (let i = 0; i < leaves.length; i += 2000)
      await database.db.insert(organizations).values(leaves.slice(i, i + 2000))
    console.log(
      `filled ${users} users and ${departments} extra departments in ${Date.now() - started} ms (${database.kind})`,
    )

    const app = await buildApp({ config, database, logger: false })
    const login = await app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { nickName: 'admin', password: config.initialAdminPassword },
    })
    const token = login.json().data.token as string
    const calls: [string, string, string, object?][] = [
      ['user list, first page', 'POST', '/api/user/list', { pageNum: 1, pageSize: 10 }],
      ['user list, last page', 'POST', '/api/user/list', { pageNum: Math.ceil(users / 10), pageSize: 10 }],
      ['user list, name filter', 'POST', '/api/user/list', { pageNum: 1, pageSize: 10, nickName: '99' }],
      ['department tree', 'GET', '/api/org/tree'],
      ['position list', 'POST', '/api/position/list', { pageNum: 1, pageSize: 10 }],
      ['role list', 'POST', '/api/role/listall', { pageNum: 1, pageSize: 10 }],
      ['group list', 'POST', '/api/user_groups/list', { pageNum: 1, pageSize: 10 }],
      ['current user', 'GET', '/api/user/current'],
    ]
    for (const [label, method, url, body] of calls) {
      const times: number[] = []
      for (let i = 0; i < 5; i++) {
        started = performance.now()
        const res = await app.inject({
          method: method as 'GET',
          url,
          headers: { 'x-auth-token': token },
          ...(body ? { payload: body } : {}),
        })
        times.push(performance.now() - started)
        if (res.statusCode !== 200) throw new Error(`${label}: ${res.statusCode} ${res.body.slice(0, 200)}`)
      }
      times.sort((a, b) => a - b)
      console.log(`${label.padEnd(24)} median ${times[2].toFixed(1)} ms, worst ${times[4].toFixed(1)} ms`)
    }
    await app.close()
  } finally {
    await database.close()
    await drop()
  }
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
