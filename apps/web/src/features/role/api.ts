import { del, get, post, put } from '../../lib/http'
import type { RoleFormValues } from '../../components/role-form'
import type { RoleListRow } from '../../components/role-list'

export type RoleDetail = RoleListRow & { authCodes: string[] }

/** GET /role/detail, query id. */
export const fetchRole = (id: number) => get<RoleDetail>('/role/detail', { id })

/** POST /role/insert: authCodes, description, roleName. Answers the new id. */
export const insertRole = (v: RoleFormValues) =>
  post<number>('/role/insert', {
    authCodes: v.authCodes,
    description: v.description ?? '',
    roleName: v.roleName,
  })

/** PUT /role/update: authCodes, description, id, roleName, status. */
export const updateRole = (id: number, v: RoleFormValues) =>
  put('/role/update', {
    authCodes: v.authCodes,
    description: v.description ?? '',
    id,
    roleName: v.roleName,
    status: v.status,
  })

/** DELETE /role/delete, query id. */
export const deleteRole = (id: number) => del('/role/delete', { id })
