import { routes } from '@amg/contract'
import { request } from '../lib/route-call'
import { roleScopeBody, type RoleFormValues } from './role-form'

/** The fields every role form sends, whichever screen it is on. */
const roleFields = (v: RoleFormValues) => ({
  authCodes: v.authCodes,
  description: v.description ?? '',
  roleName: v.roleName,
  ...roleScopeBody(v),
  requestable: v.requestable ?? false,
  requestApprovals: v.requestApprovals ?? 1,
  approverRoleIds: v.requestable ? (v.approverRoleIds ?? []) : [],
})

/**
 * The calls of a role screen family: 角色管理's (`admin` false) or 内置角色管理's, whose roles also
 * carry their type, and whose new role is type 2, status 1 unless the form says otherwise (SPEC.md §9).
 * Both read a role with the same call.
 */
export function roleCalls(admin: boolean) {
  return {
    calls: admin
      ? { insert: routes.role.adminInsert, update: routes.role.adminUpdate, remove: routes.role.adminDelete }
      : { insert: routes.role.insert, update: routes.role.update, remove: routes.role.delete },
    /** The role's fields and its permission codes. */
    fetch: (id: number) => request(routes.role.detail, { query: { id } }),
    /** Answers the new id. */
    insert: (v: RoleFormValues) =>
      admin
        ? request(routes.role.adminInsert, {
            body: { ...roleFields(v), type: v.type ?? 2, status: v.status ?? 1 },
          })
        : request(routes.role.insert, { body: roleFields(v) }),
    // the edit form always holds the status, and on 内置角色管理 the type
    update: (id: number, v: RoleFormValues) =>
      admin
        ? request(routes.role.adminUpdate, {
            body: { ...roleFields(v), id, status: v.status!, type: v.type! },
          })
        : request(routes.role.update, { body: { ...roleFields(v), id, status: v.status! } }),
    remove: (id: number) => request(admin ? routes.role.adminDelete : routes.role.delete, { query: { id } }),
  }
}
