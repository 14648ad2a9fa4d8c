import type { UserDetail } from '@amg/contract'
import type { Db } from '../../db/connection'
import { users } from '../../db/schema'
import { requireReadableUser, type Caller } from '../../auth/user-scope'
import { recordRow } from '../../lib/record-row'

/** Reading one user: the detail screen's fields, and what the list shares with it. */

/** Times leave as ISO 8601 text (DESIGN.md §4). */
export const isoTimes = <T extends { createTime: Date; updateTime: Date }>(row: T) => ({
  ...row,
  createTime: row.createTime.toISOString(),
  updateTime: row.updateTime.toISOString(),
})

/** A user's fields as the list and the detail answer them. */
export const userRowColumns = {
  id: users.id,
  nickName: users.nickName,
  realName: users.realName,
  mobile: users.mobile,
  status: users.status,
  serviceAccount: users.serviceAccount,
  source: users.source,
  createTime: users.createTime,
  updateTime: users.updateTime,
}

/** A user outside the caller's scope is answered 403 '该用户不在您的管理范围内' (docs/decisions.md). */
export async function getUser(db: Db, userId: number, caller: Caller): Promise<UserDetail> {
  const user = await recordRow(db, 'user', userId, {
    ...userRowColumns,
    passwordIsInitial: users.passwordIsInitial,
  })
  await requireReadableUser(db, caller, userId)
  return { ...isoTimes(user), passwordIsInitial: user.passwordIsInitial === 1 }
}
