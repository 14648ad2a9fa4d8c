import { sql, type SQL } from 'drizzle-orm'
import type { PgColumn } from 'drizzle-orm/pg-core'
import { LINK_EXPIRY_MSG, type RecordType } from '@amg/contract'
import type { DbOrTx, Transactable } from '../../db/connection'
import { intArray } from '../../db/sql-arrays'
import { linkBetween, RECORDS } from '../../db/tables'
import { guardedChange } from '../../auth/super-admin-guard'
import type { PowerGuard, Stake } from '../../auth/power'
import type { EffectiveAccess } from '../../auth/authorizer'
import { requireExisting } from './existing'
import { linkGrants, writeWithinReach } from './reach-grants'
import { requirePositionsInScope, requireWritableUsers, type Caller } from '../../auth/user-scope'
import { badRequest } from '../../lib/errors'

/**
 * The seven links of DESIGN.md §6a (user–role, user–group, user–position, group–role, group–user,
 * position–role, position–user) live in five tables (db/tables.ts); this one module serves them all,
 * from whichever side the console starts. Every link and unlink runs the power check and the
 * last-super-admin guard in the change's own transaction.
 */
export type LinkEntity = Extract<RecordType, 'user' | 'role' | 'group' | 'position'>

/** The stake key naming each side's power. */
const STAKE_KEY: Record<LinkEntity, keyof Stake> = {
  user: 'userIds',
  role: 'roleIds',
  group: 'groupIds',
  position: 'positionIds',
}

/** A link change counts as an update of a group (its updater and update time), not of the others. */
const TOUCHES_OWNER: ReadonlySet<LinkEntity> = new Set(['group'])

/** A column by its bare name, as an insert's column list needs it. */
const bare = (column: PgColumn) => sql.identifier(column.name)

/**
 * The power a link between these two sides moves (DESIGN.md §6a): a role's power when a role is
 * linked; a user's whole power when a user's links change; a group's or position's roles when a
 * user joins or leaves it.
 */
export function linkStake(
  a: LinkEntity,
  aIds: readonly number[],
  b: LinkEntity,
  bIds: readonly number[],
): Stake {
  const stake: Record<string, number[]> = {}
  const add = (kind: LinkEntity, ids: readonly number[], other: LinkEntity) => {
    if ((kind === 'group' || kind === 'position') && other !== 'user') return
    const key = STAKE_KEY[kind]
    stake[key] = [...(stake[key] ?? []), ...ids]
  }
  add(a, aIds, b)
  add(b, bIds, a)
  return stake
}

export interface LinkChange {
  owner: LinkEntity
  ownerId: number
  target: LinkEntity
  targetIds: readonly number[]
  /** who makes the change, with the data scope of the call (DESIGN.md §13) */
  caller: Caller
  /** unlink: also 404 when a target does not exist (the user tabs name one target) */
  requireTargets?: boolean
  /**
   * link: until when the link holds (DESIGN.md §20); undefined or null: permanent. Only a user's link
   * to a role, group or position takes it. Linking again extends a time-bound link or makes it
   * permanent, and never shortens a permanent link or a later expiry.
   */
  expiresAt?: Date | null
}

/** Whether a link between these two may expire: a user's link to a role, group or position (every link with a user). */
export const linkMayExpire = (a: LinkEntity, b: LinkEntity) => a === 'user' || b === 'user'

/** 400 unless the expiry (if any) is in the future and the link takes one; nothing is written before. */
function requireValidExpiry(change: LinkChange): void {
  if (!change.expiresAt) return
  if (!linkMayExpire(change.owner, change.target)) throw badRequest(LINK_EXPIRY_MSG.notApplicable)
  if (Number.isNaN(change.expiresAt.getTime())) throw badRequest(LINK_EXPIRY_MSG.invalid)
  if (change.expiresAt.getTime() <= Date.now()) throw badRequest(LINK_EXPIRY_MSG.past)
}

/**
 * The insert of a link. A link that may expire takes the given expiry; one already there keeps the
 * later of the two, null (permanent) being the latest: the update only runs when it lengthens the
 * link, so a link that changes nothing stages no log row and drops no cache.
 */
function insertLinks(change: LinkChange, table: ReturnType<typeof linkBetween>): SQL {
  const owner = bare(table.ownerColumn)
  const target = bare(table.targetColumn)
  const targets = sql`unnest(${intArray(change.targetIds)}) as t(id)`
  if (!linkMayExpire(change.owner, change.target))
    return sql`insert into ${table.table} (${owner}, ${target})
      select ${change.ownerId}, t.id from ${targets} on conflict do nothing`
  const expiry = change.expiresAt ? change.expiresAt.toISOString() : null
  return sql`insert into ${table.table} as l (${owner}, ${target}, expires_at)
    select ${change.ownerId}, t.id, ${expiry}::timestamptz from ${targets}
    on conflict (${owner}, ${target}) do update set expires_at = excluded.expires_at
    where l.expires_at is not null and (excluded.expires_at is null or excluded.expires_at > l.expires_at)`
}

/** The ids of one kind among the two sides of a change. */
const sideIds = (change: LinkChange, kind: LinkEntity): number[] => [
  ...(change.owner === kind ? [change.ownerId] : []),
  ...(change.target === kind ? change.targetIds : []),
]

/**
 * Data scope (DESIGN.md §13), checked in the change's transaction before it: every user on either side
 * must lie wholly in the caller's scope, and a position is linked to or unlinked from anything only
 * when its department is in scope (ids from outside the scope are refused, not only hidden). Groups
 * and roles are company-wide: a group–role or a role's own links carry no department.
 */
async function requireInScope(tx: DbOrTx, change: LinkChange): Promise<void> {
  await requirePositionsInScope(tx, change.caller, sideIds(change, 'position'))
  await requireWritableUsers(tx, change.caller, sideIds(change, 'user'))
}

export class Links {
  constructor(
    private readonly db: Transactable,
    private readonly power: PowerGuard,
  ) {}

  /**
   * Links the owner to every target; linking what is already linked is harmless. What the link
   * gives must lie within the caller's reach too (DESIGN.md §13): the caller's access is read before
   * the write, the roles given and their holders' departments after it.
   */
  async link(change: LinkChange): Promise<void> {
    requireValidExpiry(change)
    await this.change(change, true, (tx, table, callerAccess) =>
      writeWithinReach(
        tx,
        this.power,
        callerAccess,
        () => tx.execute(insertLinks(change, table)),
        () => linkGrants(tx, change.owner, [change.ownerId], change.target, change.targetIds),
      ),
    )
  }

  /** Removes the links; unlinking what is not linked is harmless. */
  async unlink(change: LinkChange): Promise<void> {
    await this.change(change, !!change.requireTargets, (tx, table) =>
      tx.execute(
        sql`delete from ${table.table} where ${bare(table.ownerColumn)} = ${change.ownerId}
        and ${bare(table.targetColumn)} = any(${intArray(change.targetIds)})`,
      ),
    )
  }

  /**
   * Checks, then applies: the power check reads the state before the change (the caller's own
   * power included, so linking a role to yourself cannot lift you over the check), and what a link
   * adds or an unlink removes is named in the stake explicitly. The caller's access is read once
   * and handed to `apply`, whose reach check judges what a link gives against the same access.
   */
  private async change(
    change: LinkChange,
    targetsMustExist: boolean,
    apply: (
      tx: DbOrTx,
      table: ReturnType<typeof linkBetween>,
      callerAccess: EffectiveAccess,
    ) => Promise<unknown>,
  ): Promise<void> {
    const table = linkBetween(change.owner, change.target)
    await guardedChange(this.db, async (tx) => {
      await requireExisting(tx, change.owner, [change.ownerId], false)
      if (targetsMustExist) await requireExisting(tx, change.target, change.targetIds, !change.requireTargets)
      await requireInScope(tx, change)
      // read once, before the write, for the power check and the reach check of what a link gives
      const callerAccess = await this.power.callerAccess(tx, change.caller.id)
      await this.power.require(
        tx,
        change.caller.id,
        linkStake(change.owner, [change.ownerId], change.target, change.targetIds),
        callerAccess,
      )
      await apply(tx, table, callerAccess)
      if (TOUCHES_OWNER.has(change.owner))
        await tx.execute(
          sql`update ${RECORDS[change.owner].table} set update_user_id = ${change.caller.id}, update_time = now()
          where id = ${change.ownerId}`,
        )
    })
  }
}
