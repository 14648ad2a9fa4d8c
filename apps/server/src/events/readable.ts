import { sql } from 'drizzle-orm'
import { queryRows, type DbOrTx } from '../db/connection'
import { intArray } from '../db/sql-arrays'
import { orgInScope, visibleUser, type Caller } from '../auth/user-scope'

/**
 * Which change events a reader may see (DESIGN.md §13, §17): the pulled list (`GET /api/events`) and
 * every webhook delivery, judged by the reader's scope as it is now (a webhook's owner at delivery
 * time). An event is shown when every user, position and department it names lies in the reader's
 * reach: a user they may read (one department in scope), a position or department in scope. Events
 * naming only company-wide records (roles, groups, permission nodes and the links between them) are
 * shown to every reader. `user.access.changed` is shown with the users in reach only, and not at all
 * when none is. A record that is gone (deleted) is in no one's reach but a company-wide reader's.
 */
export interface EventLike {
  type: string
  payload: Record<string, unknown>
}

interface Named {
  users: number[]
  positions: number[]
  orgs: number[]
}

const ids = (...values: unknown[]) =>
  values.filter((v) => typeof v === 'number' && Number.isFinite(v)) as number[]

/** The users, positions and departments an event names (`user.access.changed` is weighed apart). */
function namedBy({ type, payload: p }: EventLike): Named {
  const [kind] = type.split('.')
  if (kind === 'user' || kind === 'session')
    return { users: ids(kind === 'user' ? p.id : p.userId), positions: [], orgs: [] }
  if (kind === 'position') return { users: [], positions: ids(p.id), orgs: [] }
  if (kind === 'org') return { users: [], positions: [], orgs: ids(p.id) }
  if (kind === 'link') return { users: ids(p.userId), positions: ids(p.positionId), orgs: ids(p.orgId) }
  return { users: [], positions: [], orgs: [] }
}

const ACCESS_CHANGED = 'user.access.changed'

/** The users of `userIds` the reader may read now (deleted ones are no one's). One query. */
async function readableUsers(db: DbOrTx, reader: Caller, userIds: readonly number[]): Promise<Set<number>> {
  if (!userIds.length) return new Set()
  const rows = await queryRows<{ id: number }>(
    db,
    sql`select u.id from users u where u.id = any(${intArray([...userIds])}) and ${visibleUser(reader, sql`u.id`)}`,
  )
  return new Set(rows.map((r) => Number(r.id)))
}

/** The positions of `positionIds` whose department is in the reader's scope now. One query. */
async function readablePositions(db: DbOrTx, reader: Caller, positionIds: readonly number[]) {
  if (!positionIds.length) return new Set<number>()
  const rows = await queryRows<{ id: number; org_id: number }>(
    db,
    sql`select id, org_id from positions where id = any(${intArray([...positionIds])})`,
  )
  return new Set(rows.filter((r) => orgInScope(reader, Number(r.org_id))).map((r) => Number(r.id)))
}

/**
 * The events the reader may see, in their order, each as it may be seen (a `user.access.changed`
 * narrowed to the users in reach); the others are left out. A company-wide reader sees them all.
 */
export async function readableEvents<E extends EventLike>(
  db: DbOrTx,
  reader: Caller,
  events: readonly E[],
): Promise<E[]> {
  if (reader.scope.all) return [...events]
  const named = events.map(namedBy)
  const accessUsers = events.flatMap((e) =>
    e.type === ACCESS_CHANGED && Array.isArray(e.payload.userIds) ? ids(...e.payload.userIds) : [],
  )
  const [users, positions] = await Promise.all([
    readableUsers(db, reader, [...new Set([...named.flatMap((n) => n.users), ...accessUsers])]),
    readablePositions(db, reader, [...new Set(named.flatMap((n) => n.positions))]),
  ])
  const shown: E[] = []
  events.forEach((event, i) => {
    if (event.type === ACCESS_CHANGED) {
      const inReach = ids(...((event.payload.userIds as unknown[]) ?? [])).filter((id) => users.has(id))
      if (inReach.length) shown.push({ ...event, payload: { ...event.payload, userIds: inReach } })
      return
    }
    const n = named[i]
    if (
      n.users.every((id) => users.has(id)) &&
      n.positions.every((id) => positions.has(id)) &&
      n.orgs.every((id) => orgInScope(reader, id))
    )
      shown.push(event)
  })
  return shown
}
