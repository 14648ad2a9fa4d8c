import { sql } from 'drizzle-orm'
import { queryRows, type Db, type DbOrTx } from '../../db/connection'
import { guardedChange } from '../../auth/super-admin-guard'
import type { PowerGuard, Stake } from '../../auth/power'
import { notFound } from '../../lib/errors'

/**
 * The seven links of DESIGN.md §6a (user–role, user–group, user–position, group–role, group–user,
 * position–role, position–user) live in five tables; this one module serves them all, from
 * whichever side the console starts. Every link and unlink runs the power check and the
 * last-super-admin guard in the change's own transaction.
 */
export type LinkEntity = 'user' | 'role' | 'group' | 'position'

interface EntityInfo {
  table: string
  label: string
  /** the stake key naming this entity's power */
  stakeKey: 'userIds' | 'roleIds' | 'groupIds' | 'positionIds'
  /** a link change counts as an update of the owner (updater and update time) */
  touchesOwner?: boolean
}

const ENTITIES: Record<LinkEntity, EntityInfo> = {
  user: { table: 'users', label: '用户', stakeKey: 'userIds' },
  role: { table: 'roles', label: '角色', stakeKey: 'roleIds' },
  group: { table: 'user_groups', label: '用户组', stakeKey: 'groupIds', touchesOwner: true },
  position: { table: 'positions', label: '岗位', stakeKey: 'positionIds' },
}

/** The link tables and the column of each entity in them. */
const LINK_TABLES: { table: string; columns: Partial<Record<LinkEntity, string>> }[] = [
  { table: 'user_roles', columns: { user: 'user_id', role: 'role_id' } },
  { table: 'user_group_users', columns: { group: 'group_id', user: 'user_id' } },
  { table: 'user_group_roles', columns: { group: 'group_id', role: 'role_id' } },
  { table: 'position_users', columns: { position: 'position_id', user: 'user_id' } },
  { table: 'position_roles', columns: { position: 'position_id', role: 'role_id' } },
]

function linkTable(owner: LinkEntity, target: LinkEntity) {
  const found = LINK_TABLES.find((t) => t.columns[owner] && t.columns[target])
  if (!found || owner === target) throw new Error(`no link between ${owner} and ${target}`)
  return { table: found.table, ownerColumn: found.columns[owner]!, targetColumn: found.columns[target]! }
}

const idValues = (ids: readonly number[]) =>
  sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  )

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
    const key = ENTITIES[kind].stakeKey
    stake[key] = [...(stake[key] ?? []), ...ids]
  }
  add(a, aIds, b)
  add(b, bIds, a)
  return stake
}

/** 404 naming the ids that do not exist: '用户组不存在' for one owner, '角色不存在：7,8' for a list. */
async function requireExisting(tx: DbOrTx, kind: LinkEntity, ids: readonly number[], named: boolean) {
  if (ids.length === 0) return
  const { table, label } = ENTITIES[kind]
  const rows = await queryRows<{ id: number }>(
    tx,
    sql`select id from ${sql.identifier(table)} where id in (${idValues(ids)})`,
  )
  const have = new Set(rows.map((r) => Number(r.id)))
  const missing = ids.filter((id) => !have.has(id))
  if (missing.length) throw notFound(named ? `${label}不存在：${missing.join(',')}` : `${label}不存在`)
}

export interface LinkChange {
  owner: LinkEntity
  ownerId: number
  target: LinkEntity
  targetIds: readonly number[]
  operatorId: number
  /** unlink: also 404 when a target does not exist (the user tabs name one target) */
  requireTargets?: boolean
}

export class Links {
  constructor(
    private readonly db: Db,
    private readonly power: PowerGuard,
  ) {}

  /** Links the owner to every target; linking what is already linked is harmless. */
  async link(change: LinkChange): Promise<void> {
    await this.change(change, true, (tx, table) =>
      tx.execute(
        sql`insert into ${sql.identifier(table.table)} (${sql.identifier(table.ownerColumn)}, ${sql.identifier(
          table.targetColumn,
        )}) select ${change.ownerId}, t.id from unnest(array[${idValues(change.targetIds)}]::int[]) as t(id)
        on conflict do nothing`,
      ),
    )
  }

  /** Removes the links; unlinking what is not linked is harmless. */
  async unlink(change: LinkChange): Promise<void> {
    await this.change(change, !!change.requireTargets, (tx, table) =>
      tx.execute(
        sql`delete from ${sql.identifier(table.table)} where ${sql.identifier(table.ownerColumn)} = ${
          change.ownerId
        } and ${sql.identifier(table.targetColumn)} in (${idValues(change.targetIds)})`,
      ),
    )
  }

  /**
   * Checks, then applies: the power check reads the state before the change (the caller's own
   * power included, so linking a role to yourself cannot lift you over the check), and what a link
   * adds or an unlink removes is named in the stake explicitly.
   */
  private async change(
    change: LinkChange,
    targetsMustExist: boolean,
    apply: (tx: DbOrTx, table: ReturnType<typeof linkTable>) => Promise<unknown>,
  ): Promise<void> {
    const table = linkTable(change.owner, change.target)
    await guardedChange(this.db, async (tx) => {
      await requireExisting(tx, change.owner, [change.ownerId], false)
      if (targetsMustExist) await requireExisting(tx, change.target, change.targetIds, !change.requireTargets)
      await this.power.require(
        tx,
        change.operatorId,
        linkStake(change.owner, [change.ownerId], change.target, change.targetIds),
      )
      await apply(tx, table)
      const owner = ENTITIES[change.owner]
      if (owner.touchesOwner)
        await tx.execute(
          sql`update ${sql.identifier(owner.table)} set update_user_id = ${change.operatorId}, update_time = now()
          where id = ${change.ownerId}`,
        )
    })
  }
}
