import { del, get, post, put } from '../../lib/http'
import type { RoleFormValues } from '../../components/role-form'
import type { RoleListRow } from '../../components/role-list'

export type AdminRoleDetail = RoleListRow & { authCodes: string[] }

/** GET /role/detail, query id. */
export const fetchAdminRole = (id: number) => get<AdminRoleDetail>('/role/detail', { id })

/** POST /role/admin/insert: authCodes, description, roleName, type, status. */
export const insertAdminRole = (v: RoleFormValues) =>
  post<number>('/role/admin/insert', {
    authCodes: v.authCodes,
    description: v.description ?? '',
    roleName: v.roleName,
    type: v.type ?? 2,
    status: v.status ?? 1,
  })

/** PUT /role/admin/update: authCodes, description, id, roleName, status, type. */
export const updateAdminRole = (id: number, v: RoleFormValues) =>
  put('/role/admin/update', {
    authCodes: v.authCodes,
    description: v.description ?? '',
    id,
    roleName: v.roleName,
    status: v.status,
    type: v.type,
  })

/** DELETE /role/admin/delete, query id. */
export const deleteAdminRole = (id: number) => del('/role/admin/delete', { id })
