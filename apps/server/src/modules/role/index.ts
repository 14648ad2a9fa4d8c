/**
 * Roles, one question a file (routes.ts registers the handlers):
 * - role-read.ts: the list (POST /role/listall, its filters shared with the export) and one role's detail
 * - role-candidates.ts: the link pickers' candidates (POST /role/namelist)
 * - role-rules.ts: what a role's name, permissions and data scope must be, and the messages
 * - role-write.ts: creation, change and deletion, with the power and reach checks
 * - role-kinds.ts: the two screens (角色管理, 内置角色管理) and which roles each may touch
 */
export { ROLE_MSG, ROLE_REFUSAL } from './role-rules'
export { roleListFilters } from './role-read'
