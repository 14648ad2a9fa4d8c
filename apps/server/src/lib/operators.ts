import { eq } from 'drizzle-orm'
import { alias, type PgColumn } from 'drizzle-orm/pg-core'
import { users } from '../db/schema'

/**
 * Who created a record and who changed it last, as every record's row answers them (`OperatorVo`):
 * select `OPERATOR_FIELDS` beside the record's own, left-join `creatorJoin` and `updaterJoin` (either
 * user may be gone), and answer `operatorVos` of the row.
 */

const creator = alias(users, 'creator')
const updater = alias(users, 'updater')

export const OPERATOR_FIELDS = {
  creatorId: creator.id,
  creatorName: creator.nickName,
  updaterId: updater.id,
  updaterName: updater.nickName,
}

/** `.leftJoin(...creatorJoin(table.createUserId))` */
export const creatorJoin = (createUserId: PgColumn) => [creator, eq(creator.id, createUserId)] as const

/** `.leftJoin(...updaterJoin(table.updateUserId))` */
export const updaterJoin = (updateUserId: PgColumn) => [updater, eq(updater.id, updateUserId)] as const

interface OperatorColumns {
  creatorId: number | null
  creatorName: string | null
  updaterId: number | null
  updaterName: string | null
}

/** `{ id, nickName }` of the creator and of the last updater, or null where there is none. */
export const operatorVos = (r: OperatorColumns) => ({
  createUserVo: r.creatorId !== null ? { id: r.creatorId, nickName: r.creatorName! } : null,
  updateUserVo: r.updaterId !== null ? { id: r.updaterId, nickName: r.updaterName! } : null,
})
