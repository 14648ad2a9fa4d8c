import {
  ROLE_TYPE,
  type AdminRoleInsertBody,
  type AdminRoleUpdateBody,
  type RoleInsertBody,
  type RoleUpdateBody,
} from '@amg/contract'
import type { Db } from '../../db/connection'
import type { PowerGuard } from '../../auth/power'
import type { Caller } from '../../auth/user-scope'
import { conflict } from '../../lib/errors'
import { ROLE_REFUSAL } from './role-rules'
import { changeRole, createRole, removeRole } from './role-write'

/**
 * The two role screens of SPEC.md §7 and which roles each may touch: 角色管理 ordinary roles (type 3)
 * under /role, 内置角色管理 built-in and super-admin roles under /role/admin.
 */

type Action = keyof typeof ROLE_REFUSAL

/** 角色管理 touches ordinary roles only. */
const ordinaryOnly = (action: Action) => (type: number) => {
  if (type !== ROLE_TYPE.ordinary) throw conflict(ROLE_REFUSAL[action].onlyOrdinary)
}

/** 内置角色管理 never touches a super-admin role, and sends ordinary ones to 角色管理. */
const builtInOnly = (action: Action) => (type: number) => {
  if (type === ROLE_TYPE.superAdmin) throw conflict(ROLE_REFUSAL[action].superAdmin)
  if (type === ROLE_TYPE.ordinary) throw conflict(ROLE_REFUSAL[action].ordinary)
}

/** POST /role/insert: an ordinary role (type 3), enabled. */
export const insertRole = (db: Db, power: PowerGuard, body: RoleInsertBody, operatorId: number) =>
  createRole(db, power, { ...body, type: ROLE_TYPE.ordinary, status: 1 }, operatorId)

/** PUT /role/update: ordinary roles only. */
export const updateRole = (db: Db, power: PowerGuard, body: RoleUpdateBody, operatorId: number) =>
  changeRole(db, power, body, operatorId, ordinaryOnly('update'))

/** DELETE /role/delete: ordinary roles only. */
export const deleteRole = (db: Db, power: PowerGuard, id: number, caller: Caller) =>
  removeRole(db, power, id, caller, ordinaryOnly('delete'))

/** POST /role/admin/insert: a super-admin (1, super admins only) or built-in (2) role; defaults type 2, status 1. */
export const insertAdminRole = (db: Db, power: PowerGuard, body: AdminRoleInsertBody, operatorId: number) =>
  createRole(
    db,
    power,
    { ...body, type: body.type ?? ROLE_TYPE.builtIn, status: body.status ?? 1 },
    operatorId,
  )

/**
 * PUT /role/admin/update: built-in roles only; a super-admin role is never editable, and promoting
 * a built-in role to type 1 is for super admins only (the power check: type 1 is all power).
 */
export const updateAdminRole = (db: Db, power: PowerGuard, body: AdminRoleUpdateBody, operatorId: number) =>
  changeRole(db, power, body, operatorId, builtInOnly('update'))

/** DELETE /role/admin/delete: built-in roles only; a super-admin role is never deletable. */
export const deleteAdminRole = (db: Db, power: PowerGuard, id: number, caller: Caller) =>
  removeRole(db, power, id, caller, builtInOnly('delete'))
