import { beyondPowerMessage, type SyncDiff, type SyncDiffItem } from '@amg/contract'
import type { DbOrTx } from '../../db/connection'
import type { PowerGuard } from '../../auth/power'
import type { Caller } from '../../auth/user-scope'
import { foldDn, type Directory } from './entries'
import { item, type Plan, type Stored } from './plan'

/**
 * The groups' part of a plan (DESIGN.md §22): a directory group becomes a user group of the same name
 * whose directory members are kept in step; changing the members of a group moves the power of the
 * roles it carries, which the caller's power must cover (§6a).
 */
export async function planGroups(
  db: DbOrTx,
  power: PowerGuard,
  caller: Caller,
  dir: Directory,
  stored: Stored,
  plan: Plan,
  dnToKnown: Map<string, number>,
  note: (list: keyof Omit<SyncDiff, 'counts'>, entry: SyncDiffItem) => void,
) {
  const created = new Set(plan.create.map((u) => foldDn(u.dn)))
  for (const g of dir.groups) {
    const known = stored.groups.get(g.externalId)
    const wantedKnown = new Set<number>()
    const add: string[] = []
    for (const m of g.members) {
      const id = dnToKnown.get(m)
      if (id !== undefined) wantedKnown.add(id)
      else if (created.has(m)) add.push(m)
    }
    const current = known?.members ?? new Set<number>()
    for (const id of wantedKnown) if (!current.has(id)) add.push(String(id))
    const remove = [...current].filter((id) => !wantedKnown.has(id))
    const rename = !!known && known.name !== g.name
    if (known && !rename && !add.length && !remove.length) {
      plan.diff.counts.unchanged++
      continue
    }
    if (known && (add.length || remove.length)) {
      const missing = await power.missing(db, caller.id, { groupIds: [known.id] })
      if (missing.length) {
        note('failed', item('group', g.name, g.dn, beyondPowerMessage(missing)))
        continue
      }
    }
    plan.groups.push({ id: known?.id ?? null, externalId: g.externalId, name: g.name, rename, add, remove })
    const detail = `成员 +${add.length} −${remove.length}${rename ? `；名称：${known!.name} → ${g.name}` : ''}`
    note(known ? 'updated' : 'created', item('group', g.name, g.dn, detail))
  }
}
