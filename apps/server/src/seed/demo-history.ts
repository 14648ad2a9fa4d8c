import { inArray } from 'drizzle-orm'
import type { DbOrTx } from '../db/connection'
import { loginLogs, operationLogs, type AuditChange } from '../db/audit-schema'
import { roles, users } from '../db/schema'

/**
 * A month of history for the demo company, so the operation log, the login log and the online list
 * are not empty on a first look: sign-ins (some failed, one throttled), sign-outs, and the
 * administrators' everyday changes with their before and after. Deterministic like the rest.
 */
export async function seedDemoHistory(
  tx: DbOrTx,
  rnd: { int(n: number): number; pick<T>(xs: readonly T[]): T },
  demoNickNames: readonly string[],
): Promise<{ operations: number; logins: number }> {
  const people = await tx
    .select({ id: users.id, nickName: users.nickName })
    .from(users)
    .where(inArray(users.nickName, ['admin', ...demoNickNames]))
  const roleRows = await tx.select({ id: roles.id, roleName: roles.roleName }).from(roles).limit(20)
  const staff = await tx
    .select({ id: users.id, nickName: users.nickName, realName: users.realName })
    .from(users)
    .limit(200)
  if (!people.length || !staff.length) return { operations: 0, logins: 0 }
  const agents = [
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
    'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
  ]
  const now = Date.now()
  const at = (dayAgo: number) => new Date(now - dayAgo * 86_400_000 - rnd.int(9 * 3_600_000) - 8 * 3_600_000)
  const ip = () => `10.${rnd.int(4)}.${rnd.int(250)}.${1 + rnd.int(250)}`

  const logins: (typeof loginLogs.$inferInsert)[] = []
  const operations: (typeof operationLogs.$inferInsert)[] = []
  for (let day = 30; day >= 1; day--) {
    for (const person of people) {
      if (rnd.int(4) === 0) continue
      const where = { ip: ip(), userAgent: rnd.pick(agents) }
      if (rnd.int(6) === 0)
        logins.push({
          time: at(day),
          nickName: person.nickName,
          userId: person.id,
          ...where,
          result: 'failure',
          msg: '用户昵称或密码错误',
        })
      logins.push({
        time: at(day),
        nickName: person.nickName,
        userId: person.id,
        ...where,
        result: 'success',
        msg: '登录成功',
      })
      if (rnd.int(3) === 0)
        logins.push({
          time: at(day),
          nickName: person.nickName,
          userId: person.id,
          ...where,
          result: 'logout',
          msg: '已退出登录',
        })
      if (person.nickName === 'demo_staff' || rnd.int(2) === 0) continue
      // an administrator's change of the day
      const target = rnd.pick(staff)
      const kind = rnd.int(3)
      const change: {
        summary: string
        path: string
        method: string
        resourceType: string
        changes: AuditChange[]
      } =
        kind === 0
          ? {
              summary: '修改用户',
              path: '/api/user/update',
              method: 'PUT',
              resourceType: '用户管理',
              changes: [
                {
                  field: 'mobile',
                  before: null,
                  after: `13${rnd.int(10)}${String(10_000_000 + rnd.int(89_999_999))}`,
                  target: { type: 'user', id: target.id, name: target.nickName },
                },
              ],
            }
          : kind === 1
            ? {
                summary: '用户关联角色',
                path: '/api/rel/user-rel-role',
                method: 'PUT',
                resourceType: '用户管理',
                changes: roleRows.length
                  ? [
                      {
                        field: 'links',
                        target: { type: 'user', id: target.id, name: target.nickName },
                        added: [
                          (({ id, roleName }) => ({ type: 'role', id, name: roleName }))(rnd.pick(roleRows)),
                        ],
                        removed: [],
                      },
                    ]
                  : [],
              }
            : {
                summary: '修改用户',
                path: '/api/user/update',
                method: 'PUT',
                resourceType: '用户管理',
                changes: [
                  {
                    field: 'status',
                    before: 1,
                    after: 2,
                    target: { type: 'user', id: target.id, name: target.nickName },
                  },
                ],
              }
      operations.push({
        time: at(day),
        operatorId: person.id,
        operatorName: person.nickName,
        ...where,
        method: change.method,
        path: change.path,
        summary: change.summary,
        resourceType: change.resourceType,
        resourceId: String(target.id),
        result: 'success',
        status: 200,
        msg: change.summary === '修改用户' ? '修改成功' : '操作成功',
        changes: change.changes,
      })
      if (person.nickName !== 'admin' && rnd.int(8) === 0)
        operations.push({
          time: at(day),
          operatorId: person.id,
          operatorName: person.nickName,
          ...where,
          method: 'POST',
          path: '/api/role/insert',
          summary: '新建普通角色',
          resourceType: '角色管理',
          resourceId: null,
          result: 'denied',
          status: 403,
          msg: '没有权限执行此操作',
          changes: [],
        })
    }
  }
  logins.sort((a, b) => a.time!.getTime() - b.time!.getTime())
  operations.sort((a, b) => a.time!.getTime() - b.time!.getTime())
  if (logins.length) await tx.insert(loginLogs).values(logins)
  if (operations.length) await tx.insert(operationLogs).values(operations)
  return { operations: operations.length, logins: logins.length }
}
