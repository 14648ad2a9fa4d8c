import { and, asc, count, desc, eq, exists, ilike, not, type SQL } from 'drizzle-orm'
import {
  type IdListInput,
  type PageResult,
  type StationInsertBody,
  type StationListBody,
  type StationSimple,
  type StationSimpleBody,
  type StationUpdateBody,
} from '@amg/contract'
import type { Db, DbOrTx, Transactable } from '../../db/connection'
import { guardedChange } from '../../auth/super-admin-guard'
import type { PowerGuard } from '../../auth/power'
import { organizations, positions, stations } from '../../db/schema'
import { notFound } from '../../lib/errors'
import { uniqueName } from '../../lib/name-free'
import { containsPattern } from '../../lib/like'
import { missingRecords } from '../links/existing'
import { idListOr } from '../links/ids'
import { syncPositions } from '../position/sync'
import { creatorJoin, OPERATOR_FIELDS, operatorVos, updaterJoin } from '../../lib/operators'

export const STATION_MSG = {
  notFound: '职位不存在',
  nameExists: '职位名称已存在',
  orgNotFound: '部门不存在',
  orgIdsInvalid: '部门ID列表格式不正确',
} as const

const orgsMissing = (ids: number[]) => `部门不存在（id: ${ids.join(',')}）`

/** Stations with their creator and updater, for the list and the detail. */
const selectStations = (db: DbOrTx) =>
  db
    .select({
      id: stations.id,
      stationName: stations.stationName,
      type: stations.type,
      createTime: stations.createTime,
      updateTime: stations.updateTime,
      ...OPERATOR_FIELDS,
    })
    .from(stations)
    .leftJoin(...creatorJoin(stations.createUserId))
    .leftJoin(...updaterJoin(stations.updateUserId))

/** A station row as the console reads it: ISO times and `{ id, nickName }` operators. */
function toStationRow(row: Awaited<ReturnType<typeof selectStations>>[number]) {
  const {
    creatorId: _c,
    creatorName: _cn,
    updaterId: _u,
    updaterName: _un,
    createTime,
    updateTime,
    ...station
  } = row
  return {
    ...station,
    createTime: createTime.toISOString(),
    updateTime: updateTime.toISOString(),
    ...operatorVos(row),
  }
}

/**
 * Simple list of job titles. With orgId it answers the job titles NOT yet linked to that department
 * (what the "link job titles" popover offers); with orgId and linked=true, the ones that are.
 */
export async function simpleStations(db: Db, body: StationSimpleBody): Promise<StationSimple[]> {
  const where: (SQL | undefined)[] = []
  const name = body.stationName?.trim()
  if (name) where.push(ilike(stations.stationName, containsPattern(name)))
  if (body.orgId !== undefined && body.orgId !== null) {
    const [org] = await db
      .select({ id: organizations.id })
      .from(organizations)
      .where(eq(organizations.id, body.orgId))
    if (!org) throw notFound(STATION_MSG.orgNotFound)
    const held = exists(
      db
        .select({ one: positions.id })
        .from(positions)
        .where(and(eq(positions.stationId, stations.id), eq(positions.orgId, body.orgId))),
    )
    where.push(body.linked ? held : not(held))
  }
  return db
    .select({ id: stations.id, stationName: stations.stationName, type: stations.type })
    .from(stations)
    .where(and(...where))
    .orderBy(asc(stations.id))
}

/** The job title list's filters (POST /station/list), the one builder its export shares. */
export function stationListFilters(body: Pick<StationListBody, 'stationName' | 'type'>): SQL | undefined {
  const conditions: (SQL | undefined)[] = []
  const name = body.stationName?.trim()
  if (name) conditions.push(ilike(stations.stationName, containsPattern(name)))
  if (body.type !== undefined && body.type !== null) conditions.push(eq(stations.type, body.type))
  return and(...conditions)
}

export async function listStations(db: Db, body: StationListBody) {
  const pageNum = body.pageNum ?? 1
  const pageSize = body.pageSize ?? 10
  const where = stationListFilters(body)
  const [{ total }] = await db.select({ total: count() }).from(stations).where(where)
  const rows = await selectStations(db)
    .where(where)
    .orderBy(desc(stations.createTime), desc(stations.id))
    .limit(pageSize)
    .offset((pageNum - 1) * pageSize)
  const list = rows.map(toStationRow)
  return { list, total: Number(total) } satisfies PageResult<unknown>
}

export async function stationDetail(db: Db, stationId: number) {
  const [row] = await selectStations(db).where(eq(stations.id, stationId))
  if (!row) throw notFound(STATION_MSG.notFound)
  const held = await db
    .select({ positionId: positions.id, orgId: positions.orgId, stationId: positions.stationId })
    .from(positions)
    .where(eq(positions.stationId, stationId))
    .orderBy(asc(positions.orgId))
  return {
    ...toStationRow(row),
    orgIds: held.map((p) => p.orgId),
    stationPositionVOS: held,
  }
}

const parseOrgIds = (value: IdListInput | null | undefined) => idListOr(value, STATION_MSG.orgIdsInvalid)

async function requireOrgs(tx: DbOrTx, ids: number[]) {
  const missing = await missingRecords(tx, 'org', ids)
  if (missing.length) throw notFound(orgsMissing(missing))
}

const { requireFree: requireUniqueName, rethrow: onNameTaken } = uniqueName(
  'station',
  'stations_station_name',
  STATION_MSG.nameExists,
)

export async function insertStation(
  db: Transactable,
  body: StationInsertBody,
  operatorId: number,
): Promise<number> {
  const name = body.stationName.trim()
  const orgIds = parseOrgIds(body.orgIds)
  return db
    .transaction(async (tx) => {
      await requireUniqueName(tx, name)
      await requireOrgs(tx, orgIds)
      const [station] = await tx
        .insert(stations)
        .values({ stationName: name, type: body.type, createUserId: operatorId, updateUserId: operatorId })
        .returning({ id: stations.id })
      if (orgIds.length) {
        await tx
          .insert(positions)
          .values(orgIds.map((orgId) => ({ orgId, stationId: station.id })))
          .onConflictDoNothing()
      }
      return station.id
    })
    .catch(onNameTaken)
}

export async function updateStation(
  db: Db,
  power: PowerGuard,
  body: StationUpdateBody,
  operatorId: number,
): Promise<void> {
  const name = body.stationName.trim()
  // absent: positions unchanged; present (null, "", [] included): the full set of departments
  const orgIds = body.orgIds === undefined ? null : parseOrgIds(body.orgIds)
  await guardedChange(db, async (tx) => {
    const [station] = await tx.select({ id: stations.id }).from(stations).where(eq(stations.id, body.id))
    if (!station) throw notFound(STATION_MSG.notFound)
    await requireUniqueName(tx, name, body.id)
    if (orgIds) await requireOrgs(tx, orgIds)
    await tx
      .update(stations)
      .set({ stationName: name, type: body.type, updateUserId: operatorId, updateTime: new Date() })
      .where(eq(stations.id, body.id))
    // their holders lose the positions' roles (DESIGN.md §6a)
    if (orgIds)
      await syncPositions(tx, 'stationId', body.id, orgIds, async (gone) => {
        await power.require(tx, operatorId, { positionIds: gone })
      })
  }).catch(onNameTaken)
}

/** Deleting a job title deletes its positions: their holders lose the positions' roles (DESIGN.md §6a). */
export async function deleteStation(
  db: Db,
  power: PowerGuard,
  stationId: number,
  operatorId: number,
): Promise<void> {
  await guardedChange(db, async (tx) => {
    const [station] = await tx.select({ id: stations.id }).from(stations).where(eq(stations.id, stationId))
    if (!station) throw notFound(STATION_MSG.notFound)
    const held = await tx
      .select({ id: positions.id })
      .from(positions)
      .where(eq(positions.stationId, stationId))
    await power.require(tx, operatorId, { positionIds: held.map((p) => p.id) })
    // positions go first; their user and role links go with them (ON DELETE CASCADE)
    await tx.delete(positions).where(eq(positions.stationId, stationId))
    await tx.delete(stations).where(eq(stations.id, stationId))
  })
}
