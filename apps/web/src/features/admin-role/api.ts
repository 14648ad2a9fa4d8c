import { routes } from '@amg/contract'
import { request } from '../../lib/route-call'
import { roleScopeBody, type RoleFormValues } from '../../components/role-form'

/** The role's fields and its permission codes. */
export const fetchAdminRole = (id: number) => request(routes.role.detail, { query: { id } })

export const insertAdminRole = (v: RoleFormValues) =>
  request(routes.role.adminInsert, {
    body: {
      authCodes: v.authCodes,
      description: v.description ?? '',
      roleName: v.roleName,
      type: v.type ?? 2,
      status: v.status ?? 1,
      ...roleScopeBody(v),
    },
  })

// the edit form always holds the status and the type
export const updateAdminRole = (id: number, v: RoleFormValues) =>
  request(routes.role.adminUpdate, {
    body: {
      authCodes: v.authCodes,
      description: v.description ?? '',
      id,
      roleName: v.roleName,
      status: v.status!,
      type: v.type!,
      ...roleScopeBody(v),
    },
  })

export const deleteAdminRole = (id: number) => request(routes.role.adminDelete, { query: { id } })
