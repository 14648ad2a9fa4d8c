import { sql } from 'drizzle-orm'
import { OrgInsertBody, StationInsertBody } from '@amg/contract'
import { queryRows, type Db, type Tx } from '../../db/connection'
import { intArray, arrayParam } from '../../db/sql-arrays'
import { runInTransaction } from '../../db/request-transaction'
import { writeJobRow, type JobOrigin } from '../../audit/operation-log'
import { endUserSessions } from '../../auth/sessions'
import type { Caller } from '../../auth/user-scope'
import { insertOrg } from '../org'
import { batchInsert } from '../position/service'
import { insertStation } from '../station/service'
import { foldDn, type DirectoryUser } from './entries'
import { pathKey, readStored, type Plan } from './plan'

/**
 * Writes a plan (DESIGN.md §22): departments, the job title and positions through the ordinary
 * services (their rules, their scope checks); users and links set-wise in batches of 1,000, each batch
 * in one transaction with its operation-log row and events, as an import's batch is. Nothing planned,
 * nothing written.
 */

const BATCH = 1000
/** A directory user holds no password here: they sign in by binding to the directory. */
const NO_PASSWORD = '!directory'

export async function applyPlan(db: Db, caller: Caller, origin: JobOrigin, plan: Plan, stationName: string) {
  const step = async (msg: string, work: (tx: Tx) => Promise<void>) =>
    db.transaction((tx) =>
      runInTransaction(tx, async () => {
        await work(tx)
        await writeJobRow(tx, origin, { summary: '目录同步', resourceId: null, msg })
      }),
    )
  const needsPositions = plan.create.length > 0 || plan.move.length > 0
  if (plan.newOrgs.length || (plan.needsStation && needsPositions))
    await step(`新建部门 ${plan.newOrgs.length} 个`, async (tx) => {
      for (const path of plan.newOrgs) {
        const stored = await readStoredOrgs(tx)
        const parent = stored.get(pathKey(path.slice(0, -1)))!
        await insertOrg(tx, { organizationName: path.at(-1)!, parent } as OrgInsertBody, caller)
      }
      if (plan.needsStation) await insertStation(tx, { stationName, type: 1 } as StationInsertBody, caller.id)
    })
  let stored = await readStored(db, stationName)
  // the position of each department a user goes to, made when missing
  const orgsNeeded = new Set<number>()
  for (const u of [...plan.create, ...plan.move.map((m) => m.user)])
    orgsNeeded.add(stored.orgs.get(pathKey(u.path))!)
  const missingPositions = [...orgsNeeded].filter((orgId) => !stored.positions.has(orgId))
  if (missingPositions.length) {
    await step(`新建岗位 ${missingPositions.length} 个`, async (tx) => {
      for (const orgId of missingPositions)
        await batchInsert(tx, { orgId, stationIds: [stored.stationId!] }, caller)
    })
    stored = await readStored(db, stationName)
  }
  const positionOf = (u: DirectoryUser) => stored.positions.get(stored.orgs.get(pathKey(u.path))!)!

  for (let i = 0; i < plan.create.length; i += BATCH) {
    const batch = plan.create.slice(i, i + BATCH)
    await step(`新建用户 ${batch.length} 个`, (tx) => insertUsers(tx, caller, batch, positionOf))
  }
  const changes = [
    ...plan.update.map((u) => ({ ...u, kind: 'update' as const })),
    ...plan.move.map((m) => ({ ...m, kind: 'move' as const })),
  ]
  for (let i = 0; i < changes.length; i += BATCH) {
    const batch = changes.slice(i, i + BATCH)
    await step(`修改用户 ${batch.length} 个`, async (tx) => {
      for (const c of batch) {
        if (c.kind === 'update')
          await tx.execute(sql`update users set nick_name = ${c.user.nickName}, real_name = ${c.user.realName},
            mobile = ${c.user.mobile}, update_time = now(), update_user_id = ${caller.id} where id = ${c.id}`)
        else {
          if (c.from.length)
            await tx.execute(
              sql`delete from position_users where user_id = ${c.id} and position_id = any(${intArray(c.from)})`,
            )
          await tx.execute(
            sql`insert into position_users (position_id, user_id) values (${positionOf(c.user)}, ${c.id}) on conflict do nothing`,
          )
        }
      }
    })
  }
  if (plan.freeze.length)
    await step(`冻结用户 ${plan.freeze.length} 个（目录中已不存在）`, async (tx) => {
      const ids = plan.freeze.map((f) => f.id)
      await tx.execute(sql`update users set status = 2, update_time = now(), update_user_id = ${caller.id}
        where id = any(${intArray(ids)})`)
      for (const id of ids) await endUserSessions(tx, id)
    })
  if (plan.groups.length) {
    const idByDn = new Map<string, number>()
    const after = await readDnIds(db, plan)
    for (const [dn, id] of after) idByDn.set(dn, id)
    // set-wise: one statement each for the new groups, the members joining and the members leaving
    await step(`用户组 ${plan.groups.length} 个`, async (tx) => {
      const fresh = plan.groups.filter((g) => g.id === null)
      const made = fresh.length
        ? await queryRows<{ id: number; external_id: string }>(
            tx,
            sql`insert into user_groups (group_name, status, source, external_id, create_user_id, update_user_id)
              select n, 1, 'ldap', e, ${caller.id}, ${caller.id}
              from unnest(${arrayParam(
                fresh.map((g) => g.name),
                'text',
              )}, ${arrayParam(
                fresh.map((g) => g.externalId),
                'text',
              )}) as t(n, e)
              returning id, external_id`,
          )
        : []
      const madeId = new Map(made.map((r) => [r.external_id, Number(r.id)]))
      const addGroups: number[] = []
      const addUsers: number[] = []
      const dropGroups: number[] = []
      const dropUsers: number[] = []
      for (const g of plan.groups) {
        const id = g.id ?? madeId.get(g.externalId)!
        if (g.id !== null && g.rename)
          await tx.execute(
            sql`update user_groups set group_name = ${g.name}, update_time = now(), update_user_id = ${caller.id} where id = ${id}`,
          )
        for (const m of g.add) {
          const userId = /^\d+$/.test(m) ? Number(m) : idByDn.get(m)
          if (userId === undefined) continue
          addGroups.push(id)
          addUsers.push(userId)
        }
        for (const userId of g.remove) {
          dropGroups.push(id)
          dropUsers.push(userId)
        }
      }
      if (addGroups.length)
        await tx.execute(sql`insert into user_group_users (group_id, user_id)
          select * from unnest(${intArray(addGroups)}, ${intArray(addUsers)}) on conflict do nothing`)
      if (dropGroups.length)
        await tx.execute(sql`delete from user_group_users where (group_id, user_id) in
          (select * from unnest(${intArray(dropGroups)}, ${intArray(dropUsers)}))`)
    })
  }
}

async function readStoredOrgs(tx: Tx): Promise<Map<string, number>> {
  const rows = await queryRows<{ id: number; parent: number | null; organization_name: string }>(
    tx,
    sql`select id, parent, organization_name from organizations`,
  )
  const byId = new Map(rows.map((r) => [Number(r.id), r]))
  const pathOf = (id: number): string[] => {
    const r = byId.get(id)!
    return r.parent === null ? [] : [...pathOf(Number(r.parent)), r.organization_name]
  }
  return new Map(rows.map((r) => [pathKey(pathOf(Number(r.id))), Number(r.id)]))
}

/** The ids of the users just made, by their folded DN. */
async function readDnIds(db: Db, plan: Plan): Promise<Map<string, number>> {
  const out = new Map<string, number>()
  if (!plan.create.length) return out
  const ids = plan.create.map((u) => u.externalId)
  const rows = await queryRows<{ id: number; external_id: string }>(
    db,
    sql`select id, external_id from users where source = 'ldap' and external_id = any(${arrayParam(ids, 'text')})`,
  )
  const byExternal = new Map(rows.map((r) => [r.external_id, Number(r.id)]))
  for (const u of plan.create) {
    const id = byExternal.get(u.externalId)
    if (id !== undefined) out.set(foldDn(u.dn), id)
  }
  return out
}

async function insertUsers(
  tx: Tx,
  caller: Caller,
  batch: DirectoryUser[],
  positionOf: (u: DirectoryUser) => number,
) {
  const col = (values: (string | null)[]) => arrayParam(values, 'text')
  const rows = await queryRows<{ id: number; external_id: string }>(
    tx,
    sql`insert into users (nick_name, real_name, mobile, status, password_hash, password_is_initial,
        must_change_password, source, external_id, create_user_id, update_user_id)
      select n, r, m, 1, ${NO_PASSWORD}, 0, 0, 'ldap', e, ${caller.id}, ${caller.id}
      from unnest(${col(batch.map((u) => u.nickName))}, ${col(batch.map((u) => u.realName))},
        ${col(batch.map((u) => u.mobile))}, ${col(batch.map((u) => u.externalId))}) as t(n, r, m, e)
      returning id, external_id`,
  )
  const idOf = new Map(rows.map((r) => [r.external_id, Number(r.id)]))
  await tx.execute(sql`insert into position_users (position_id, user_id)
    select * from unnest(${intArray(batch.map(positionOf))}, ${intArray(batch.map((u) => idOf.get(u.externalId)!))})
    on conflict do nothing`)
}
