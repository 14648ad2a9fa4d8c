import { sql } from 'drizzle-orm'
import {
  matchesUrlPattern,
  ROLE_TYPE,
  type AuthzWhoCanBody,
  type AuthzWhoCanRow,
  type PageResult,
} from '@amg/contract'
import { queryRows, type Db } from '../../db/connection'
import type { Authorizer } from '../../auth/authorizer'
import { usersReaching } from '../../auth/reach'
import { distinctVia, loadSources } from './sources'
import { callPath, normalizeMethod, serviceOfCall } from './service'
import { visibleUser, type Caller } from '../../auth/user-scope'

/**
 * Who may make a call in a service's namespace, without resolving every user: the enabled nodes of
 * that service whose patterns match (in memory), the enabled roles holding one of them plus every super-admin role, then — in SQL, one
 * page at a time — the active users holding such a role directly, via an enabled group or an
 * enabled position.
 */
export async function whoCan(
  db: Db,
  authz: Authorizer,
  body: AuthzWhoCanBody,
  caller: Caller,
): Promise<PageResult<AuthzWhoCanRow>> {
  const service = await serviceOfCall(authz, body.service)
  const method = normalizeMethod(body.method)
  const path = callPath(body.path)
  const pageNum = body.pageNum ?? 1
  const pageSize = body.pageSize ?? 10
  const tree = await authz.loadEnabledTree()
  const codes = [...tree.values()]
    .filter((n) => n.service === service && n.urlPatternInfos.some((p) => matchesUrlPattern(p, method, path)))
    .map((n) => n.code)
  const codeCond = codes.length
    ? sql`or exists (select 1 from role_auths ra where ra.role_id = r.id
          and ra.auth_code in (${sql.join(codes, sql`, `)}))`
    : sql``
  const roleRows = await queryRows<{ id: number }>(
    db,
    sql`select r.id from roles r where r.status = 1 and (r.type = ${ROLE_TYPE.superAdmin} ${codeCond})`,
  )
  const roleIds = roleRows.map((r) => Number(r.id))
  if (roleIds.length === 0) return { list: [], total: 0 }
  const roleFilter = sql`in (${sql.join(roleIds, sql`, `)})`
  // the roles are enabled ones already, so who reaches them is who holds them
  const holders = sql`(${usersReaching({ roles: roleFilter })})`
  // only users in the caller's scope are answered (DESIGN.md §13)
  const visible = visibleUser(caller, sql`u.id`) ?? sql`true`
  // the page and the total in one pass over the holders (at 100,000 users, each pass is most of the cost)
  const page = await queryRows<{ id: number; nick_name: string; total: number | string }>(
    db,
    sql`select u.id, u.nick_name, count(*) over () as total from users u
        where u.status = 1 and u.id in ${holders} and ${visible}
        order by u.id limit ${pageSize} offset ${(pageNum - 1) * pageSize}`,
  )
  if (page.length === 0) {
    // past the last page: the total alone
    const [{ total }] = await queryRows<{ total: number }>(
      db,
      sql`select count(*)::int as total from users u where u.status = 1 and u.id in ${holders} and ${visible}`,
    )
    return { list: [], total: Number(total) }
  }
  const total = Number(page[0].total)
  const sources = await loadSources(
    db,
    sql`in (${sql.join(
      page.map((u) => Number(u.id)),
      sql`, `,
    )})`,
    roleFilter,
  )
  const list = page.map((u) => {
    const mine = sources.filter((s) => s.userId === Number(u.id))
    return {
      userId: Number(u.id),
      nickName: u.nick_name,
      superAdmin: mine.some((s) => s.role.type === ROLE_TYPE.superAdmin),
      via: distinctVia(mine),
    }
  })
  return { list, total }
}
