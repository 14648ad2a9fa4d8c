import { routes, type OrgLevelNode, type OrgSearchHit, type RouteData } from '@amg/contract'
import { request } from '../../lib/route-call'
import { useStationStore } from '../../lib/stores/station-store'

/** A department of the screen's tree: what its node actions need. */
export type { OrgNode } from '../../components/org-levels'
export type { OrgLevelNode, OrgSearchHit }

/** One department–job title link (a position) of the department-position tab. */
export type OrgPositionRow = RouteData<typeof routes.position.listForOrg>['list'][number]

export type { StationSimple as StationCandidate } from '../../lib/stores/station-store'

export const orgDetailKey = (id: number) => ['org', 'detail', id] as const

// The tree's parts (levels, searches, paths) are shared with the department pickers.
export {
  ORG_TREE_KEY,
  orgLevelKey,
  orgSearchKey,
  orgPathKey,
  fetchOrgLevel,
  searchOrgs,
  fetchOrgPath,
  orgLevelQuery,
  type OrgLevelOf,
} from '../../lib/org-parts'

export const fetchOrgPositions = (params: {
  orgId: number
  pageNum: number
  pageSize: number
  stationName: string
}) =>
  request(routes.position.listForOrg, {
    body: { ...params, stationName: params.stationName || undefined },
  })

/** The job titles not yet linked to the department (the station store's list-only fetch). */
export async function fetchUnlinkedStations(orgId: number, stationName: string) {
  const list = await useStationStore
    .getState()
    .fetchSimpleList({ orgId, stationName: stationName || undefined })
  return { list, total: list.length }
}

export const linkStations = (orgId: number, stationIds: number[]) =>
  request(routes.position.batchInsert, { body: { orgId, stationIds } })

export const removePositions = (positionIds: number[]) =>
  request(routes.position.delete, { query: { positionIds: positionIds.join(',') } })
