import { and, asc, ilike, type SQL } from 'drizzle-orm'
import type { SelectedFields } from 'drizzle-orm/pg-core'
import type { SelectResultFields } from 'drizzle-orm/query-builders/select.types'
import type { Db } from '../../db/connection'
import { RECORDS } from '../../db/tables'
import type { PowerGuard } from '../../auth/power'
import { markGrantable } from '../../auth/grantable'
import { containsPattern } from '../../lib/like'
import type { LinkEntity } from './service'

/** What a link picker offers, and how to find what each candidate would give. */
export interface CandidateQuery<F extends SelectedFields> {
  type: LinkEntity
  /** the fields each candidate answers; `id` among them */
  fields: F & { id: unknown }
  /** keeps the records whose name contains it, case-insensitively; blank keeps all */
  nameContains?: string | null
  /** further conditions (a status, `notLinkedTo` the owner) */
  where?: (SQL | undefined)[]
  /** at most this many (a picker, not a page); none: all */
  limit?: number
  /** the roles each candidate carries, whose power the caller must hold to grant it */
  rolesOf: (ids: number[]) => Promise<Map<number, number[]>>
}

/** A namelist: the candidates of one link picker for the caller, each marked grantable or not. */
export type Namelist<Q, R> = (db: Db, power: PowerGuard, callerId: number, q: Q) => Promise<R[]>

/**
 * A link picker's candidates (the role and group namelists), in id order, each marked with whether
 * the caller may grant it and, when not, the refusal the link call would answer (DESIGN.md §6a).
 */
export async function linkCandidates<F extends SelectedFields>(
  db: Db,
  power: PowerGuard,
  callerId: number,
  q: CandidateQuery<F>,
) {
  const { table, keyColumn, nameColumn } = RECORDS[q.type]
  const name = q.nameContains?.trim()
  const query = db
    .select(q.fields)
    .from(table)
    .where(and(name && nameColumn ? ilike(nameColumn, containsPattern(name)) : undefined, ...(q.where ?? [])))
    .orderBy(asc(keyColumn))
    .$dynamic()
  // the builder cannot follow a generic selection; the rows are exactly `fields`
  const rows = (await (q.limit ? query.limit(q.limit) : query)) as (SelectResultFields<F> & { id: number })[]
  return markGrantable(db, power, callerId, rows, q.rolesOf)
}
