/**
 * Users, one question a file (routes.ts registers the handlers):
 * - user-list.ts: the list (POST /user/list) and its filters, which the export shares
 * - user-candidates.ts: the link pickers' candidates (POST /user/namelist)
 * - user-read.ts: one user's detail; user-rules.ts: what a user's fields must be, and the messages
 * - user-password.ts: a password an administrator sets (a new user's, a reset)
 * - user-write.ts: creation, change (status and reset included) and deletion
 * - user-links.ts: linking a user to roles, groups and positions; user-link-lists.ts: the tabs listing them
 */
export { checkNewUser, USER_MSG } from './user-rules'
export type { PreparedPassword } from './user-password'
export { userListFilters } from './user-list'
export { insertUser, newUserValues, updateUser } from './user-write'
