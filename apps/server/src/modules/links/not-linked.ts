import { and, eq, notExists, sql, type SQL } from 'drizzle-orm'
import type { DbOrTx } from '../../db/connection'
import { linkBetween, RECORDS } from '../../db/tables'
import type { LinkEntity } from './service'

/**
 * The records of type `target` not linked to the owner: a link picker's candidates, so the picker
 * never offers what is linked already (the role, group and user namelists).
 */
export function notLinkedTo(db: DbOrTx, owner: LinkEntity, ownerId: number, target: LinkEntity): SQL {
  const link = linkBetween(owner, target)
  return notExists(
    db
      .select({ x: sql`1` })
      .from(link.table)
      .where(and(eq(link.ownerColumn, ownerId), eq(link.targetColumn, RECORDS[target].keyColumn))),
  )
}
