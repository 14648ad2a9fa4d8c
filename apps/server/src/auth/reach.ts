import { sql, type SQL } from 'drizzle-orm'

/**
 * Which roles a user reaches (DESIGN.md §6): roles linked to them directly, carried by a group they
 * belong to, or carried by a position they hold. Every question of the form "who holds what" is
 * asked through here (the authorizer, the power check, the last-super-admin guard, role impact,
 * explain and who-can), so what counts as reaching a role is decided once.
 */
export interface ReachQuery {
  /** condition on the user's id, e.g. sql`= ${id}` or sql`in (…)`; absent: every user */
  users?: SQL
  /** condition on the role's id, the same way; absent: every role */
  roles?: SQL
  /**
   * `enabled` (the default): a group or position gives its roles only while enabled, as access is
   * decided. `every`: every carrier whatever its status, for stored power (DESIGN.md §6a), which a
   * disabled group or position gives the moment someone enables it.
   */
  carriers?: 'enabled' | 'every'
  /**
   * Also name each source: `via_name` is the group's name or the position's job title (`org_id`
   * names its department), null for a direct link, where the role is its own source.
   */
  named?: boolean
}

/**
 * Whether the user's link aliased `alias` (user_roles, user_group_users or position_users) still holds
 * (DESIGN.md §20): permanent, or expiring later than now. Every read that decides (reach, data scope,
 * the power check) asks it, so an expired link that the sweeper has not yet removed gives nothing.
 */
export const liveLink = (alias: string): SQL =>
  sql.raw(`(${alias}.expires_at is null or ${alias}.expires_at > now())`)

/**
 * One row per (user, role, source): `user_id`, `role_id`, `kind` ('direct', 'group' or
 * 'position'), `via_id` (the role's id for a direct link, else the group's or position's), then
 * `via_name` and `org_id` when `named`. A role reached two ways is two rows. The roles' and users'
 * own status is the caller's to weigh: role impact counts a disabled role's holders, the authorizer
 * does not. Use it as a subquery.
 */
export function reach({ users, roles, carriers = 'enabled', named = false }: ReachQuery): SQL {
  // an expired link reaches nothing, for the decision and the power check alike (it never comes back)
  const where = (user: SQL, role: SQL, live: SQL) => {
    const conds = [users && sql`${user} ${users}`, roles && sql`${role} ${roles}`, live].filter(
      (c) => c !== undefined,
    )
    return sql`where ${sql.join(conds, sql` and `)}`
  }
  const enabled = (column: SQL) => (carriers === 'enabled' ? sql`and ${column} = 1` : sql``)
  const names = (name: SQL, org: SQL) => (named ? sql`, ${name} as via_name, ${org} as org_id` : sql``)
  return sql`
    select ur.user_id, ur.role_id, 'direct' as kind, ur.role_id as via_id
           ${names(sql`null::varchar`, sql`null::int`)}
      from user_roles ur
      ${where(sql`ur.user_id`, sql`ur.role_id`, liveLink('ur'))}
    union all
    select gu.user_id, gr.role_id, 'group', g.id ${names(sql`g.group_name`, sql`null::int`)}
      from user_group_users gu
      join user_groups g on g.id = gu.group_id ${enabled(sql`g.status`)}
      join user_group_roles gr on gr.group_id = g.id
      ${where(sql`gu.user_id`, sql`gr.role_id`, liveLink('gu'))}
    union all
    select pu.user_id, pr.role_id, 'position', p.id ${names(sql`s.station_name`, sql`p.org_id`)}
      from position_users pu
      join positions p on p.id = pu.position_id ${enabled(sql`p.status`)}
      ${named ? sql`join stations s on s.id = p.station_id` : sql``}
      join position_roles pr on pr.position_id = p.id
      ${where(sql`pu.user_id`, sql`pr.role_id`, liveLink('pu'))}`
}

/** The ids of the roles reached, for `role_id in (…)`. */
export const rolesReached = (query: Omit<ReachQuery, 'named'>): SQL =>
  sql`select role_id from (${reach(query)}) reached`

/** The ids of the users reaching, for `user_id in (…)`. */
export const usersReaching = (query: Omit<ReachQuery, 'named'>): SQL =>
  sql`select user_id from (${reach(query)}) reached`
