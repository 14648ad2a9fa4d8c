import { and, eq } from 'drizzle-orm'
import { importExpiryPast, importUnknownName } from '@amg/contract'
import type { Tx } from '../../db/connection'
import { positions, positionUsers, userGroupUsers, userRoles } from '../../db/schema'
import { orgInScope, type Caller } from '../../auth/user-scope'
import { liveLink } from '../../auth/reach'
import { badRequest } from '../../lib/errors'
import { minuteOf, parseLinkCell } from './link-cell'

/**
 * The links a user-import row names (DESIGN.md §15) with their expiries (§20): read from the cells,
 * checked against the clock, and compared with what the user holds, so an upsert changes only what
 * differs and export → import stays a no-op.
 */

export type RowLinkTarget = 'position' | 'role' | 'group'
export const ROW_LINK_TARGETS: readonly RowLinkTarget[] = ['position', 'role', 'group']

/** A time-bound link's expiry as the row gives it, with the name its cell used (for messages). */
export interface RowExpiry {
  at: Date
  name: string
}

/** Per kind, the time-bound ones among the row's ids; an id not here is permanent. */
export type RowExpiries = Record<RowLinkTarget, Map<number, RowExpiry>>

export const noExpiries = (): RowExpiries => ({ position: new Map(), role: new Map(), group: new Map() })

/**
 * The ids a cell's names resolve to, and the expiry of the time-bound ones. One record named twice
 * (`A;A（至 …）`) is linked once, as linking it twice would leave it: permanent over time-bound, the
 * later expiry over the earlier.
 */
export function resolveLinks(
  names: readonly string[],
  book: Map<string, number>,
  what: string,
  timeZone: string,
): { ids: number[]; expiries: Map<number, RowExpiry> } {
  const permanent = new Set<number>()
  const expiries = new Map<number, RowExpiry>()
  const ids: number[] = []
  for (const text of names) {
    const { name, expiresAt } = parseLinkCell(text, timeZone, what, (n) => book.has(n))
    const id = book.get(name)
    if (id === undefined) throw badRequest(importUnknownName(what, name))
    if (!permanent.has(id) && !expiries.has(id)) ids.push(id)
    if (!expiresAt) {
      permanent.add(id)
      expiries.delete(id)
    } else if (!permanent.has(id)) {
      const known = expiries.get(id)
      if (!known || known.at < expiresAt) expiries.set(id, { at: expiresAt, name })
    }
  }
  return { ids, expiries }
}

const WHAT: Record<RowLinkTarget, string> = { position: '岗位', role: '角色', group: '用户组' }

/**
 * 400 unless every expiry the row gives lies ahead (the link call's own rule, its message naming the
 * cell's link). An expiry equal to the one stored (to the minute: the cell shows minutes) is the
 * user's own link as exported, left as it is, and passes even in its last minute.
 */
export function requireFutureExpiries(expiries: RowExpiries, held?: HeldLinks): void {
  const now = Date.now()
  for (const target of ROW_LINK_TARGETS)
    for (const [id, { at, name }] of expiries[target]) {
      if (at.getTime() > now) continue
      const stored = held?.[target].get(id)
      if (stored && minuteOf(stored) === minuteOf(at)) continue
      throw badRequest(importExpiryPast(WHAT[target], name))
    }
}

/** What a user holds, per kind: id → expiry (null: permanent). Links already expired are not held. */
export type HeldLinks = Record<RowLinkTarget, Map<number, Date | null>>

/**
 * A user's live links; positions outside the caller's scope are left out (an export does not show
 * them, an import does not touch them). An expired link the sweeper has not yet removed gives
 * nothing and is not exported, so it is not held either: a row naming it links it anew.
 */
export async function heldLinks(tx: Tx, userId: number, caller: Caller): Promise<HeldLinks> {
  // one after another: these run on the row's transaction, one connection
  const held = await tx
    .select({ id: positions.id, orgId: positions.orgId, at: positionUsers.expiresAt })
    .from(positionUsers)
    .innerJoin(positions, eq(positions.id, positionUsers.positionId))
    .where(and(eq(positionUsers.userId, userId), liveLink('position_users')))
  const roleRows = await tx
    .select({ id: userRoles.roleId, at: userRoles.expiresAt })
    .from(userRoles)
    .where(and(eq(userRoles.userId, userId), liveLink('user_roles')))
  const groupRows = await tx
    .select({ id: userGroupUsers.groupId, at: userGroupUsers.expiresAt })
    .from(userGroupUsers)
    .where(and(eq(userGroupUsers.userId, userId), liveLink('user_group_users')))
  const byId = (rows: { id: number; at: Date | null }[]) => new Map(rows.map((r) => [r.id, r.at]))
  return {
    position: byId(held.filter((p) => orgInScope(caller, p.orgId))),
    role: byId(roleRows),
    group: byId(groupRows),
  }
}

/** What an upsert does to one kind of link: link (new, or lengthened) and unlink. */
export interface LinkDiff {
  /** ids to link, each with the row's expiry (null: permanent) */
  link: Map<number, Date | null>
  unlink: number[]
  /** of `link`, the ids the user did not hold at all */
  added: number[]
}

/**
 * The row's links against the held ones, under the link module's rule (DESIGN.md §20: linking again
 * extends or makes permanent, never shortens). A link the row makes permanent, or gives a later
 * minute, is linked again with the row's expiry; one the row gives the same minute, or an earlier
 * one, or an expiry where the user holds it permanently, is left as stored — linking it would change
 * nothing.
 */
export function diffLinks(
  ids: readonly number[],
  expiries: Map<number, RowExpiry>,
  held: Map<number, Date | null>,
) {
  const diff: LinkDiff = { link: new Map(), unlink: [], added: [] }
  const wanted = new Set(ids)
  for (const id of ids) {
    const at = expiries.get(id)?.at ?? null
    if (!held.has(id)) {
      diff.link.set(id, at)
      diff.added.push(id)
      continue
    }
    const stored = held.get(id)!
    if (stored !== null && (at === null || minuteOf(at) > minuteOf(stored))) diff.link.set(id, at)
  }
  for (const id of held.keys()) if (!wanted.has(id)) diff.unlink.push(id)
  return diff
}

/** The ids grouped by expiry (permanent first): one link call takes one expiry for all its ids. */
export function byExpiry(links: ReadonlyMap<number, Date | null>): [Date | null, number[]][] {
  const groups = new Map<number | null, [Date | null, number[]]>()
  for (const [id, at] of links) {
    const key = at === null ? null : at.getTime()
    const group = groups.get(key)
    if (group) group[1].push(id)
    else groups.set(key, [at, [id]])
  }
  return [...groups.entries()]
    .sort(([a], [b]) => (a === null ? -1 : b === null ? 1 : a - b))
    .map(([, group]) => group)
}
