import { MSG, routes, type OrgLevelNode, type OrgSearchHit, type RouteData } from '@amg/contract'
import { request } from '../../lib/route-call'
import { useStationStore, type StationSimple } from '../../lib/stores/station-store'
import type { OwnerLinks } from '../../lib/owner-links'

/** A department of the screen's tree: what its node actions need. */
export type { OrgNode } from '../../components/org-levels'
export type { OrgLevelNode, OrgSearchHit }

/** One department–job title link (a position) of the department-position tab. */
export type OrgPositionRow = RouteData<typeof routes.position.listForOrg>['list'][number]

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

/** The department's job titles: each link is a position, removed by deleting it (SPEC.md §2). */
export const orgStationLinks: OwnerLinks<OrgPositionRow, StationSimple> = {
  kind: {
    unlinkConfirm: MSG.confirmUnlinkStation,
    linkButtonText: '关联职位',
    candidatesCall: routes.station.simpleList,
  },
  list: (orgId, { pageNum, pageSize, keyword }) =>
    request(routes.position.listForOrg, {
      body: { orgId, pageNum, pageSize, stationName: keyword || undefined },
    }),
  /** the job titles not yet linked to the department (the station store's list-only fetch) */
  candidates: async (orgId, stationName) => {
    const list = await useStationStore
      .getState()
      .fetchSimpleList({ orgId, stationName: stationName || undefined })
    return { list, total: list.length }
  },
  link: (orgId, stationIds) => request(routes.position.batchInsert, { body: { orgId, stationIds } }),
  unlink: (_orgId, positionIds) =>
    request(routes.position.delete, { query: { positionIds: positionIds.join(',') } }),
  calls: { link: routes.position.batchInsert, unlink: routes.position.delete },
}
