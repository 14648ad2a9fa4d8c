import { routes, type OrgLevelNode, type OrgSearchHit } from '@amg/contract'
import { request } from './route-call'

/**
 * The department tree read by parts (decisions.md "The department tree by levels"), shared by the
 * department screen's tree and the department pickers. Every key lies under ORG_TREE_KEY, so
 * invalidating the tree after a change refreshes every part read.
 */
export const ORG_TREE_KEY = ['org', 'tree'] as const

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

/** One department with its path: a tree or picker opens to it (empty when it does not exist). */
export const fetchOrgPath = async (id: number) =>
  (await request(routes.org.tree, { query: { pathTo: id } })) as OrgSearchHit[]

/** A level as a query: the same answer wherever the tree is shown. */
export const orgLevelQuery = (parent: OrgLevelOf) => ({
  queryKey: orgLevelKey(parent),
  queryFn: () => fetchOrgLevel(parent),
  // a change made in this console invalidates the tree; a level is read again on a later visit
  staleTime: 30_000,
})
