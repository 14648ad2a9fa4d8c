import { inArray, ne } from 'drizzle-orm'
import { ROLE_TYPE } from '@amg/contract'
import type { DbOrTx } from '../db/connection'
import { loginLogs, operationLogs, type AuditChange } from '../db/audit-schema'
import { roles, users } from '../db/schema'
import { DemoOperators, type InventedCall } from './demo-operators'

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
    .orderBy(users.id)
  // ordinary roles: no one hands out 超级管理员 on an everyday
  const roleRows = await tx
    .select({ id: roles.id, roleName: roles.roleName })
    .from(roles)
    .where(ne(roles.type, ROLE_TYPE.superAdmin))
    .orderBy(roles.id)
    .limit(20)
  const staff = await tx
    .select({ id: users.id, nickName: users.nickName, realName: users.realName })
    .from(users)
    .orderBy(users.id)
    .limit(200)
  if (!people.length || !staff.length) return { operations: 0, logins: 0 }
  const agents = [
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
    'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
  ]
  const operators = new DemoOperators(tx)
  /** the person of the day if their roles allow the change, else the first of the others who may */
  const operatorFor = async (call: InventedCall, person: Person): Promise<Person | null> => {
    const start = people.indexOf(person)
    for (let i = 0; i < people.length; i++) {
      const candidate = people[(start + i) % people.length]
      if (await operators.mayMake(candidate.id, call)) return candidate
    }
    return null
  }
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
      if (rnd.int(2) === 0) continue
      // an administrator's change of the day, made by someone whose roles allow it
      const target = rnd.pick(staff)
      const change = inventedChange(rnd, target, roleRows)
      const operator = await operatorFor(change.call, person)
      if (operator)
        operations.push({
          time: at(day),
          operatorId: operator.id,
          operatorName: operator.nickName,
          ...where,
          method: change.call.method,
          path: change.call.path,
          summary: change.summary,
          resourceType: '用户管理',
          resourceId: String(target.id),
          result: 'success',
          status: 200,
          msg: change.summary === '用户关联角色' ? '操作成功' : '修改成功',
          changes: change.changes,
        })
      // now and then someone tries what their roles do not allow, and is refused
      if (rnd.int(8) === 0 && !(await operators.mayCall(person.id, 'POST', '/api/role/insert')))
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

type Person = { id: number; nickName: string }
type Rnd = { int(n: number): number; pick<T>(xs: readonly T[]): T }

/** One of the everyday changes to a user: a new mobile, a role linked, a freeze. */
function inventedChange(
  rnd: Rnd,
  target: Person,
  roleRows: readonly { id: number; roleName: string }[],
): { summary: string; call: InventedCall; changes: AuditChange[] } {
  const ref = { type: 'user' as const, id: target.id, name: target.nickName }
  const update = { method: 'PUT', path: '/api/user/update', targetUserId: target.id }
  const kind = rnd.int(3)
  if (kind === 1 && roleRows.length) {
    const role = rnd.pick(roleRows)
    return {
      summary: '用户关联角色',
      call: {
        method: 'PUT',
        path: '/api/rel/user-rel-role',
        targetUserId: target.id,
        stake: { roleIds: [role.id] },
      },
      changes: [
        {
          field: 'links',
          target: ref,
          added: [{ type: 'role', id: role.id, name: role.roleName }],
          removed: [],
        },
      ],
    }
  }
  if (kind === 2)
    return {
      summary: '冻结用户',
      call: update,
      changes: [{ field: 'status', before: 1, after: 2, target: ref }],
    }
  return {
    summary: '修改用户',
    call: update,
    changes: [
      {
        field: 'mobile',
        before: null,
        after: `13${rnd.int(10)}${String(10_000_000 + rnd.int(89_999_999))}`,
        target: ref,
      },
    ],
  }
}
