import { and, eq, isNull } from 'drizzle-orm'
import {
  MSG,
  OrgInsertBody,
  StationInsertBody,
  importStationNotAllowed,
  importUnknownName,
  normalizeName,
  type ImportMode,
} from '@amg/contract'
import type { Tx } from '../../db/connection'
import { organizations, positions, stations } from '../../db/schema'
import type { PowerGuard } from '../../auth/power'
import type { Caller } from '../../auth/user-scope'
import { badRequest, conflict, forbidden } from '../../lib/errors'
import { insertOrg, ORG_MSG } from '../org'
import { batchInsert } from '../position/service'
import { insertStation } from '../station/service'
import { checkAsBody, type CompileBody } from './request-checks'
import { PATH_SEPARATOR } from './names'
import type { RowOutcome } from './jobs'

/** The department template's columns (DESIGN.md §15): a tree in one file, a position per row. */
export const ORG_COLUMNS = ['部门全称*', '职位'] as const

export interface OrgImportContext {
  power: PowerGuard
  caller: Caller
  mode: ImportMode
  compile: CompileBody
  /** whether the caller may call POST /station/insert (read when the job starts) */
  mayCreateStation: boolean
}

/** The type of a job title an import creates: 普通职位, the only type there is. */
const ORDINARY_STATION = 1

const segmentsOf = (path: string) =>
  path
    .split(PATH_SEPARATOR)
    .map((s) => normalizeName(s.trim()))
    .filter((s) => s !== '')

/** The key of a row (department path and job title): a pair named twice in one file fails both rows. */
export const orgRowKey = (cells: readonly string[]): string => {
  const station = normalizeName((cells[1] ?? '').trim())
  const path = segmentsOf(cells[0] ?? '').join(PATH_SEPARATOR)
  return station ? `${path}${PATH_SEPARATOR}${station}` : path
}

/**
 * One row of a department import, in its own savepoint: every department of the path that does not
 * exist is created as POST /org/insert creates it (its name rules, the sibling rule, the scope rule:
 * a scoped administrator only strictly below a root of the scope), then the position of the job
 * title, as PUT /position/batch/insert creates it (or /org/insert with `stationIds` for a new
 * department). A job title that does not exist is first created as POST /station/insert creates it
 * (its schema and name rules, the unique name), without departments: the department is linked by
 * the position call, which holds the scope rule; a caller who may not call /station/insert fails
 * the row. `insert` refuses a row whose department (or position) exists already; `upsert` leaves it
 * as it is. An existing job title is used as it is in both modes.
 */
export async function importOrgRow(
  tx: Tx,
  ctx: OrgImportContext,
  cells: readonly string[],
): Promise<RowOutcome> {
  const path = (cells[0] ?? '').trim()
  const segments = segmentsOf(path)
  if (segments.length === 0) throw badRequest(importUnknownName('部门', path))
  const [root] = await tx
    .select({ id: organizations.id, name: organizations.organizationName })
    .from(organizations)
    .where(isNull(organizations.parent))
  if (!root || root.name !== segments[0]) throw badRequest(importUnknownName('部门', segments[0]))
  const stationName = normalizeName((cells[1] ?? '').trim())
  let stationId: number | null = null
  if (stationName) stationId = await stationOf(tx, ctx, stationName)
  let orgId = root.id
  const names = segments.slice(1)
  for (const [i, name] of names.entries()) {
    const [child] = await tx
      .select({ id: organizations.id })
      .from(organizations)
      .where(and(eq(organizations.parent, orgId), eq(organizations.organizationName, name)))
    if (child) {
      orgId = child.id
      continue
    }
    // the last department takes its position in the same call, as the console's 新建部门 gives it
    const last = i === names.length - 1
    const body = checkAsBody<OrgInsertBody>(ctx.compile, OrgInsertBody, {
      organizationName: name,
      parent: orgId,
      ...(last && stationId !== null ? { stationIds: [stationId] } : {}),
    })
    orgId = await insertOrg(tx, body, ctx.caller)
    if (last) return 'inserted'
  }
  if (stationId === null) return refuseExisting(ctx, ORG_MSG.siblingExists)
  const [held] = await tx
    .select({ id: positions.id })
    .from(positions)
    .where(and(eq(positions.orgId, orgId), eq(positions.stationId, stationId)))
  if (held) return refuseExisting(ctx, MSG.importPositionExists)
  await batchInsert(tx, { orgId, stationIds: [stationId] }, ctx.caller)
  return 'inserted'
}

/** The job title of this name, created as POST /station/insert creates one when there is none. */
async function stationOf(tx: Tx, ctx: OrgImportContext, name: string): Promise<number> {
  const [station] = await tx.select({ id: stations.id }).from(stations).where(eq(stations.stationName, name))
  if (station) return station.id
  // as for the single call: its permission first, then its body's schema
  if (!ctx.mayCreateStation) throw forbidden(importStationNotAllowed(name))
  const body = checkAsBody<StationInsertBody>(ctx.compile, StationInsertBody, {
    stationName: name,
    type: ORDINARY_STATION,
  })
  return insertStation(tx, body, ctx.caller.id)
}

/** An existing department or position: `insert` refuses the row, `upsert` leaves it unchanged. */
const refuseExisting = (ctx: OrgImportContext, message: string): RowOutcome => {
  if (ctx.mode === 'insert') throw conflict(message)
  return 'unchanged'
}
