import { routes, type OrgLevelNode, type OrgSearchHit, type RouteData } from '@amg/contract'
import { request } from '../../lib/route-call'
import { useStationStore } from '../../lib/stores/station-store'

/** A department of the screen's tree: what its node actions need. */
export type OrgNode = Pick<OrgLevelNode, 'id' | 'organizationName' | 'parent'>
export type { OrgLevelNode, OrgSearchHit }

/** One department–job title link (a position) of the department-position tab. */
export type OrgPositionRow = RouteData<typeof routes.position.listForOrg>['list'][number]

export type { StationSimple as StationCandidate } from '../../lib/stores/station-store'

export const ORG_TREE_KEY = ['org', 'tree'] as const
export const orgDetailKey = (id: number) => ['org', 'detail', id] as const

/**
 * The screen's tree is read level by level (decisions.md "The department tree by levels"). Its keys
 * lie under ORG_TREE_KEY, so invalidating the tree after a change refreshes every level loaded.
 */
export type OrgLevelOf = number | 'roots'
export const orgLevelKey = (parent: OrgLevelOf) => [...ORG_TREE_KEY, 'level', parent] as const
export const orgSearchKey = (keyword: string) => [...ORG_TREE_KEY, 'search', keyword] as const
export const orgPathKey = (id: number) => [...ORG_TREE_KEY, 'path', id] as const

/** The root level, or one department's children (GET /org/tree?roots=1 | ?parentId=). */
export const fetchOrgLevel = async (parent: OrgLevelOf) =>
  (await request(routes.org.tree, {
    query: parent === 'roots' ? { roots: 1 } : { parentId: parent },
  })) as OrgLevelNode[]

/** Departments whose name contains the keyword, each with its path (at most ORG_SEARCH_LIMIT). */
export const searchOrgs = async (keyword: string) =>
  (await request(routes.org.tree, { query: { keyword } })) as OrgSearchHit[]

/** One department with its path: the tree opens to it (empty when it does not exist). */
export const fetchOrgPath = async (id: number) =>
  (await request(routes.org.tree, { query: { pathTo: id } })) as OrgSearchHit[]

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
