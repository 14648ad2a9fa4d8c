import { and, asc, count, eq, ilike, type SQL } from 'drizzle-orm'
import { isBlank, type PageResult, type UserNameListBody, type UserSimple } from '@amg/contract'
import type { Db } from '../../db/connection'
import { users } from '../../db/schema'
import { visibleUser, type Caller } from '../../auth/user-scope'
import { paging } from '../../lib/paged'
import { notLinkedTo } from '../links/not-linked'
import { containsPattern } from '../../lib/like'

/**
 * POST /user/namelist: the "link users" pickers' candidates, by nickName, ordered by id. With a group
 * or position id, the users already in that group / holding that position are left out, so the
 * picker never offers what is linked (as /role/namelist does for roles).
 */
export async function listUserCandidates(
  db: Db,
  q: UserNameListBody,
  caller: Caller,
): Promise<PageResult<UserSimple>> {
  const filters: SQL[] = []
  const inScope = visibleUser(caller, users.id)
  if (inScope) filters.push(inScope)
  // the pickers offer people: a machine client's service account is given power through its own roles
  filters.push(eq(users.serviceAccount, false))
  if (!isBlank(q.nickName)) filters.push(ilike(users.nickName, containsPattern(q.nickName!.trim())))
  if (q.userGroupId) filters.push(notLinkedTo(db, 'group', q.userGroupId, 'user'))
  if (q.positionId) filters.push(notLinkedTo(db, 'position', q.positionId, 'user'))
  const where = and(...filters)
  const { pageSize, offset } = paging(q)
  const [list, [{ total }]] = await Promise.all([
    db
      .select({ id: users.id, nickName: users.nickName, realName: users.realName, status: users.status })
      .from(users)
      .where(where)
      .orderBy(asc(users.id))
      .limit(pageSize)
      .offset(offset),
    db.select({ total: count() }).from(users).where(where),
  ])
  return { list, total: Number(total) }
}
