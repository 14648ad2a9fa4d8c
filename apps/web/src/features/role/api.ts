import { routes } from '@amg/contract'
import { request } from '../../lib/route-call'
import { roleScopeBody, type RoleFormValues } from '../../components/role-form'

/** The role's fields and its permission codes. */
export const fetchRole = (id: number) => request(routes.role.detail, { query: { id } })

/** Answers the new id. */
export const insertRole = (v: RoleFormValues) =>
  request(routes.role.insert, {
    body: {
      authCodes: v.authCodes,
      description: v.description ?? '',
      roleName: v.roleName,
      ...roleScopeBody(v),
    },
  })

// the edit form always holds the status
export const updateRole = (id: number, v: RoleFormValues) =>
  request(routes.role.update, {
    body: {
      authCodes: v.authCodes,
      description: v.description ?? '',
      id,
      roleName: v.roleName,
      status: v.status!,
      ...roleScopeBody(v),
    },
  })

export const deleteRole = (id: number) => request(routes.role.delete, { query: { id } })
