import { sql } from 'drizzle-orm'
import { queryRows, type DbOrTx } from '../../db/connection'
import { pathKey, type Stored } from './plan'

/** What the sync compares the directory with (DESIGN.md §22): the directory's records as stored here. */
export async function readStored(db: DbOrTx, stationName: string): Promise<Stored> {
  const orgRows = await queryRows<{ id: number; parent: number | null; organization_name: string }>(
    db,
    sql`select id, parent, organization_name from organizations`,
  )
  const byId = new Map(orgRows.map((r) => [Number(r.id), r]))
  const root = orgRows.find((r) => r.parent === null)!
  const pathOf = (id: number): string[] => {
    const r = byId.get(id)!
    return r.parent === null ? [] : [...pathOf(Number(r.parent)), r.organization_name]
  }
  const orgs = new Map(orgRows.map((r) => [pathKey(pathOf(Number(r.id))), Number(r.id)]))
  const [station] = await queryRows<{ id: number }>(
    db,
    sql`select id from stations where station_name = ${stationName}`,
  )
  const stationId = station ? Number(station.id) : null
  const positions = new Map<number, number>()
  if (stationId !== null)
    for (const p of await queryRows<{ id: number; org_id: number }>(
      db,
      sql`select id, org_id from positions where station_id = ${stationId}`,
    ))
      positions.set(Number(p.org_id), Number(p.id))
  const users = new Map<string, Stored['users'] extends Map<string, infer V> ? V : never>()
  for (const u of await queryRows<{
    id: number
    external_id: string
    nick_name: string
    real_name: string | null
    mobile: string | null
    status: number
  }>(
    db,
    sql`select id, external_id, nick_name, real_name, mobile, status from users where source = 'ldap' and external_id is not null`,
  ))
    users.set(u.external_id, {
      id: Number(u.id),
      nickName: u.nick_name,
      realName: u.real_name,
      mobile: u.mobile,
      status: Number(u.status),
    })
  const held = new Map<number, number[]>()
  if (stationId !== null)
    for (const l of await queryRows<{ user_id: number; position_id: number }>(
      db,
      sql`select pu.user_id, pu.position_id from position_users pu join positions p on p.id = pu.position_id
        join users u on u.id = pu.user_id where p.station_id = ${stationId} and u.source = 'ldap'`,
    ))
      held.set(Number(l.user_id), [...(held.get(Number(l.user_id)) ?? []), Number(l.position_id)])
  const groups = new Map<string, { id: number; name: string; members: Set<number> }>()
  const byGroupId = new Map<number, { id: number; name: string; members: Set<number> }>()
  for (const g of await queryRows<{ id: number; external_id: string; group_name: string }>(
    db,
    sql`select id, external_id, group_name from user_groups where source = 'ldap' and external_id is not null`,
  )) {
    const group = { id: Number(g.id), name: g.group_name, members: new Set<number>() }
    groups.set(g.external_id, group)
    byGroupId.set(group.id, group)
  }
  for (const m of await queryRows<{ group_id: number; user_id: number }>(
    db,
    sql`select gu.group_id, gu.user_id from user_group_users gu join user_groups g on g.id = gu.group_id
      join users u on u.id = gu.user_id where g.source = 'ldap' and u.source = 'ldap'`,
  ))
    byGroupId.get(Number(m.group_id))?.members.add(Number(m.user_id))
  return {
    rootId: Number(root.id),
    rootName: root.organization_name,
    orgs,
    stationId,
    positions,
    users,
    held,
    groups,
  }
}
