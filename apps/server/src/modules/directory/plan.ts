import { sql } from 'drizzle-orm'
import {
  beyondPowerMessage,
  DIRECTORY_MSG,
  foldName,
  MSG,
  type SyncDiff,
  type SyncDiffItem,
} from '@amg/contract'
import { queryRows, type DbOrTx } from '../../db/connection'
import { textArray } from '../../db/sql-arrays'
import type { PowerGuard } from '../../auth/power'
import { orgInScope, writableInScope, type Caller } from '../../auth/user-scope'
import { AppError } from '../../lib/errors'
import { checkNewUser } from '../user'
import { foldDn, type Directory, type DirectoryUser } from './entries'
import { planGroups } from './plan-groups'

/**
 * What a sync will change (DESIGN.md §22), decided before anything is written: a dry run is this plan
 * alone, a real run writes exactly it (apply.ts). Only what differs is in the plan, so an unchanged
 * directory plans nothing and the run writes nothing.
 */

export interface Stored {
  rootId: number
  rootName: string
  /** department path (names below the root joined by '/') → id */
  orgs: Map<string, number>
  stationId: number | null
  /** department id → the position of the default job title there */
  positions: Map<number, number>
  /** ldap users by external id */
  users: Map<
    string,
    { id: number; nickName: string; realName: string | null; mobile: string | null; status: number }
  >
  /** user id → their positions of the default job title */
  held: Map<number, number[]>
  /** ldap groups by external id, with their ldap members */
  groups: Map<string, { id: number; name: string; members: Set<number> }>
}

export interface Plan {
  /** department paths to make, parents first */
  newOrgs: string[][]
  needsStation: boolean
  create: DirectoryUser[]
  update: { id: number; user: DirectoryUser; fields: string[] }[]
  move: { id: number; user: DirectoryUser; from: number[] }[]
  freeze: { id: number; nickName: string }[]
  groups: {
    id: number | null
    externalId: string
    name: string
    rename: boolean
    add: string[]
    remove: number[]
  }[]
  diff: SyncDiff
}

const LIST_MAX = 500
export const pathKey = (path: readonly string[]) => path.join('/')
export { readStored } from './stored'

export const item = (
  kind: SyncDiffItem['kind'],
  name: string,
  dn: string | null,
  detail: string | null = null,
): SyncDiffItem => ({
  kind,
  name,
  dn,
  detail,
})

/** Compares the directory with what is stored, and checks the caller's power and reach on each change. */
export async function makePlan(
  db: DbOrTx,
  power: PowerGuard,
  caller: Caller,
  dir: Directory,
  stored: Stored,
): Promise<Plan> {
  const diff: SyncDiff = {
    created: [],
    updated: [],
    moved: [],
    frozen: [],
    failed: [],
    counts: { created: 0, updated: 0, moved: 0, frozen: 0, failed: 0, unchanged: 0 },
  }
  const note = (list: keyof Omit<SyncDiff, 'counts'>, entry: SyncDiffItem) => {
    diff.counts[list]++
    if (diff[list].length < LIST_MAX) diff[list].push(entry)
  }
  const plan: Plan = {
    newOrgs: [],
    needsStation: stored.stationId === null,
    create: [],
    update: [],
    move: [],
    freeze: [],
    groups: [],
    diff,
  }
  for (const f of dir.failed) note('failed', item('user', f.name, f.dn, f.reason))

  // departments: every path's missing prefixes, parents first; a new one must lie below one in reach
  const orgName = (path: readonly string[]) => [stored.rootName, ...path].join('/')
  const wanted = new Set<string>()
  const refusedPath = new Map<string, string>()
  for (const u of dir.users)
    for (let i = 1; i <= u.path.length; i++) {
      const prefix = u.path.slice(0, i)
      const key = pathKey(prefix)
      if (stored.orgs.has(key) || wanted.has(key)) continue
      const parentKey = pathKey(prefix.slice(0, -1))
      const parentId = stored.orgs.get(parentKey)
      if (refusedPath.has(parentKey)) refusedPath.set(key, refusedPath.get(parentKey)!)
      else if (parentId !== undefined && !orgInScope(caller, parentId))
        refusedPath.set(key, MSG.orgOutOfScope)
      else {
        wanted.add(key)
        plan.newOrgs.push(prefix)
        note('created', item('department', orgName(prefix), null))
      }
    }

  const dnToKnown = new Map<string, number>()
  const seen = new Set<string>()
  const userStake = async (ids: number[]) => {
    const writable = await writableInScope(db, caller, ids)
    for (const id of ids) if (!writable.has(id)) return MSG.userOutOfScope
    const missing = await power.missing(db, caller.id, { userIds: ids })
    return missing.length ? beyondPowerMessage(missing) : null
  }
  const positionRefusals = new Map<number, string | null>()
  const positionRefusal = async (orgId: number | undefined, positionId: number | undefined) => {
    if (orgId !== undefined && !orgInScope(caller, orgId)) return MSG.positionOutOfScope
    if (positionId === undefined) return null
    if (!positionRefusals.has(positionId)) {
      const missing = await power.missing(db, caller.id, { positionIds: [positionId] })
      positionRefusals.set(positionId, missing.length ? beyondPowerMessage(missing) : null)
    }
    return positionRefusals.get(positionId)!
  }
  // names of users who are not this directory's, which a new directory user cannot take
  const names = dir.users.filter((u) => !stored.users.has(u.externalId)).map((u) => foldName(u.nickName))
  const taken = new Set(
    names.length
      ? (
          await queryRows<{ name: string }>(
            db,
            sql`select lower(nick_name) as name from users where lower(nick_name) = any(${textArray(new Set(names))})`,
          )
        ).map((r) => foldName(r.name))
      : [],
  )
  const batchNames = new Set<string>()
  for (const u of dir.users) {
    seen.add(u.externalId)
    const refused = refusedPath.get(pathKey(u.path))
    if (refused) {
      note('failed', item('user', u.nickName, u.dn, refused))
      continue
    }
    const known = stored.users.get(u.externalId)
    try {
      checkNewUser({ nickName: u.nickName, realName: u.realName, mobile: u.mobile, status: 1 } as never)
    } catch (err) {
      if (!(err instanceof AppError)) throw err
      note('failed', item('user', u.nickName, u.dn, err.message))
      continue
    }
    const orgId = stored.orgs.get(pathKey(u.path))
    const positionId = orgId === undefined ? undefined : stored.positions.get(orgId)
    if (!known) {
      const folded = foldName(u.nickName)
      if (taken.has(folded) || batchNames.has(folded)) {
        note('failed', item('user', u.nickName, u.dn, DIRECTORY_MSG.nameTakenLocal(u.nickName)))
        continue
      }
      const refusedHere = await positionRefusal(orgId, positionId)
      if (refusedHere) {
        note('failed', item('user', u.nickName, u.dn, refusedHere))
        continue
      }
      batchNames.add(folded)
      plan.create.push(u)
      note('created', item('user', u.nickName, u.dn, orgName(u.path)))
      continue
    }
    dnToKnown.set(foldDn(u.dn), known.id)
    const fields: string[] = []
    if (known.nickName !== u.nickName) fields.push(`登录名：${known.nickName} → ${u.nickName}`)
    if ((known.realName ?? null) !== u.realName)
      fields.push(`姓名：${known.realName ?? '无'} → ${u.realName ?? '无'}`)
    if ((known.mobile ?? null) !== u.mobile)
      fields.push(`手机号：${known.mobile ?? '无'} → ${u.mobile ?? '无'}`)
    const from = stored.held.get(known.id) ?? []
    const moves = positionId === undefined || from.length !== 1 || from[0] !== positionId
    if (!fields.length && !moves) {
      diff.counts.unchanged++
      continue
    }
    const refusal = (await userStake([known.id])) ?? (moves ? await positionRefusal(orgId, positionId) : null)
    if (refusal) {
      note('failed', item('user', u.nickName, u.dn, refusal))
      continue
    }
    if (fields.length) {
      plan.update.push({ id: known.id, user: u, fields })
      note('updated', item('user', u.nickName, u.dn, fields.join('；')))
    }
    if (moves) {
      plan.move.push({ id: known.id, user: u, from })
      note('moved', item('user', u.nickName, u.dn, `→ ${orgName(u.path)}`))
    }
  }
  // gone upstream: frozen (never deleted), unless frozen already
  for (const [externalId, known] of stored.users) {
    if (seen.has(externalId) || known.status !== 1) continue
    const refusal = await userStake([known.id])
    if (refusal) note('failed', item('user', known.nickName, null, refusal))
    else {
      plan.freeze.push({ id: known.id, nickName: known.nickName })
      note('frozen', item('user', known.nickName, null, '目录中已不存在'))
    }
  }
  await planGroups(db, power, caller, dir, stored, plan, dnToKnown, note)
  return plan
}
