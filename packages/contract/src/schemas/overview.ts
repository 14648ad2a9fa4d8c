import { Type, type Static } from '@sinclair/typebox'
import { OperationLogRow } from './log'

const Count = Type.Integer({ minimum: 0 })

/**
 * The home page's figures (GET /system/overview). Each part is present only when the caller may call
 * the list it summarises (its name says which), so the page shows nobody a figure their own screens
 * would not.
 */
export const SystemOverview = Type.Object({
  /** user list: users by status, and how many still sign in with the initial password */
  users: Type.Optional(Type.Object({ active: Count, frozen: Count, initialPassword: Count })),
  /** role list: every role (built-in ones included) */
  roles: Type.Optional(Count),
  /** user list and role list: active users holding an enabled super admin role */
  superAdmins: Type.Optional(Count),
  /** user group list */
  userGroups: Type.Optional(Count),
  /** department tree */
  organizations: Type.Optional(Count),
  /** job title list */
  stations: Type.Optional(Count),
  /** position list */
  positions: Type.Optional(Count),
  /** service list */
  services: Type.Optional(Count),
  /** operation log list: the caller's own last operations, newest first */
  recentOperations: Type.Optional(
    Type.Array(Type.Pick(OperationLogRow, ['id', 'time', 'summary', 'resourceName', 'result'])),
  ),
})
export type SystemOverview = Static<typeof SystemOverview>
