/**
 * User groups, one question a file (routes.ts registers the handlers):
 * - group-read.ts: the list (POST /user_groups/list, its filters shared with the export) and one group's detail
 * - group-candidates.ts: the "link groups" picker's candidates (POST /user_groups/namelist)
 * - group-write.ts: creation, change, enabling and deletion, with the power and reach checks
 * - group-links.ts: a group's links to roles and members, and the tabs listing them
 */
export { groupListFilters } from './group-read'
