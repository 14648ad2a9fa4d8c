import { eq } from 'drizzle-orm'
import {
  MSG,
  UserInsertBody,
  UserUpdateBody,
  importUnknownName,
  isBlank,
  normalizeMobile,
  normalizeName,
  type ImportMode,
  type SecuritySettings,
} from '@amg/contract'
import type { Tx } from '../../db/connection'
import { positions, positionUsers, userGroupUsers, userRoles, users } from '../../db/schema'
import type { PowerGuard } from '../../auth/power'
import { orgInScope, type Caller } from '../../auth/user-scope'
import { badRequest } from '../../lib/errors'
import { hashPassword } from '../../auth/password'
import { requirePolicy } from '../../auth/password-rules'
import { Links, type LinkEntity } from '../links/service'
import { checkNewUser, insertUser, updateUser, type PreparedPassword } from '../user'
import { checkAsBody, type CompileBody } from './request-checks'
import { requireSuperAdminAllowed } from './super-admin-rows'
import { splitNames, type NameBook } from './names'

/** The user template's columns, in order (DESIGN.md §15); '*' marks the one that must be filled. */
export const USER_COLUMNS = [
  '登录名*',
  '姓名',
  '手机号',
  '状态',
  '岗位',
  '角色',
  '用户组',
  '初始密码',
] as const

export const STATUS_TEXT: Record<number, string> = { 1: '正常', 2: '冻结' }
const STATUS_OF: Record<string, number> = { '': 1, 正常: 1, 冻结: 2 }

export type RowOutcome = 'inserted' | 'updated' | 'unchanged'

/** What every row of one job shares. */
export interface UserImportContext {
  power: PowerGuard
  caller: Caller
  mode: ImportMode
  names: NameBook
  compile: CompileBody
  /** the password policy (DESIGN.md §14), read once per job */
  settings: SecuritySettings
  /** 允许导入超级管理员: rows giving a super-admin role may go in (super-admin-rows.ts) */
  allowSuperAdmin: boolean
}

/** A row's cells, read: what the row asks for, names resolved to ids. */
export interface UserRowIntent {
  nickName: string
  realName: string | null
  mobile: string | null
  status: number
  password: string | null
  positionIds: number[]
  roleIds: number[]
  groupIds: number[]
}

const resolve = (names: readonly string[], book: Map<string, number>, what: string): number[] =>
  names.map((name) => {
    const id = book.get(name)
    if (id === undefined) throw badRequest(importUnknownName(what, name))
    return id
  })

/** The nickName a row names, as stored (the key of duplicates within the file). */
export const rowNickName = (cells: readonly string[]) => normalizeName((cells[0] ?? '').trim())

export function readRow(cells: readonly string[], names: NameBook): UserRowIntent {
  const text = (i: number) => (cells[i] ?? '').trim()
  const status = STATUS_OF[text(3)]
  if (status === undefined) throw badRequest(MSG.importStatusInvalid)
  return {
    nickName: text(0),
    realName: text(1) || null,
    // as the user calls store it: a spreadsheet's full-width digits are digits
    mobile: normalizeMobile(text(2)) || null,
    status,
    password: isBlank(cells[7]) ? null : cells[7],
    positionIds: resolve(splitNames(text(4)), names.positionByName, '岗位'),
    roleIds: resolve(splitNames(text(5)), names.roleByName, '角色'),
    groupIds: resolve(splitNames(text(6)), names.groupByName, '用户组'),
  }
}

/**
 * Hashes each distinct password once per job (DESIGN.md §15): the configured initial password, the
 * one most rows take, is hashed at most once however many rows there are.
 */
export class JobPasswords {
  private readonly hashes = new Map<string, Promise<string>>()
  constructor(private readonly initialPassword: string) {}

  prepare(given: string | null): Promise<PreparedPassword> {
    const password = given ?? this.initialPassword
    let hash = this.hashes.get(password)
    if (!hash) this.hashes.set(password, (hash = hashPassword(password)))
    return hash.then((h) => ({ hash: h, initial: given === null }))
  }
}

/**
 * One row of a user import, in its own savepoint `tx`: the same checks and the same service calls
 * as POST /user/insert, PUT /user/update and the user's link calls, in that order; the first refusal
 * fails the row with its message. `upsert` changes an existing user to what the row says (its
 * initial password is not touched); a row equal to the user as stored changes nothing.
 */
export async function importUserRow(
  tx: Tx,
  ctx: UserImportContext,
  passwords: JobPasswords,
  cells: readonly string[],
): Promise<RowOutcome> {
  const row = readRow(cells, ctx.names)
  const links = new Links(tx, ctx.power)
  const [existing] = await tx
    .select({ id: users.id, realName: users.realName, mobile: users.mobile, status: users.status })
    .from(users)
    .where(eq(users.nickName, normalizeName(row.nickName)))
  if (existing && ctx.mode === 'upsert') return updateFromRow(tx, links, ctx, existing, row)

  const body = newUserBody(ctx, row)
  await requireSuperAdminAllowed(tx, ctx.allowSuperAdmin, row)
  const id = await insertUser(tx, ctx.power, await passwords.prepare(row.password), ctx.caller, body)
  await linkAll(links, ctx.caller, id, 'role', row.roleIds)
  await linkAll(links, ctx.caller, id, 'group', row.groupIds)
  return 'inserted'
}

/**
 * A new user's row checked as POST /user/insert checks its body before the database is asked: the
 * body's schema, the user checks, and a given password against the policy (prepareNewUser's order).
 * Both the row-by-row and the set-wise path take a new user through here.
 */
export function newUserBody(ctx: UserImportContext, row: UserRowIntent): UserInsertBody {
  const body = checkAsBody<UserInsertBody>(ctx.compile, UserInsertBody, {
    nickName: row.nickName,
    realName: row.realName,
    mobile: row.mobile,
    status: row.status,
    ...(row.password ? { password: row.password } : {}),
    positionIds: row.positionIds,
  })
  const nickName = checkNewUser(body)
  if (row.password) requirePolicy(ctx.settings, row.password, nickName)
  return body
}

const linkAll = async (links: Links, caller: Caller, userId: number, target: LinkEntity, ids: number[]) => {
  if (ids.length) await links.link({ owner: 'user', ownerId: userId, target, targetIds: ids, caller })
}

const unlinkAll = async (links: Links, caller: Caller, userId: number, target: LinkEntity, ids: number[]) => {
  if (ids.length) await links.unlink({ owner: 'user', ownerId: userId, target, targetIds: ids, caller })
}

const missingFrom = (want: readonly number[], have: readonly number[]) => {
  const held = new Set(have)
  return want.filter((id) => !held.has(id))
}

async function updateFromRow(
  tx: Tx,
  links: Links,
  ctx: UserImportContext,
  existing: { id: number; realName: string | null; mobile: string | null; status: number },
  row: UserRowIntent,
): Promise<RowOutcome> {
  const body = checkAsBody<UserUpdateBody>(ctx.compile, UserUpdateBody, {
    id: existing.id,
    nickName: row.nickName,
    status: row.status,
    realName: row.realName,
    mobile: row.mobile,
  })
  // one after another: these run on the row's transaction, one connection
  const held = await tx
    .select({ id: positions.id, orgId: positions.orgId })
    .from(positionUsers)
    .innerJoin(positions, eq(positions.id, positionUsers.positionId))
    .where(eq(positionUsers.userId, existing.id))
  const roleRows = await tx
    .select({ id: userRoles.roleId })
    .from(userRoles)
    .where(eq(userRoles.userId, existing.id))
  const groupRows = await tx
    .select({ id: userGroupUsers.groupId })
    .from(userGroupUsers)
    .where(eq(userGroupUsers.userId, existing.id))
  // positions outside the caller's scope are neither shown in an export nor changed by an import
  const heldPositions = held.filter((p) => orgInScope(ctx.caller, p.orgId)).map((p) => p.id)
  const heldRoles = roleRows.map((r) => r.id)
  const heldGroups = groupRows.map((g) => g.id)
  // as the update stores them: a blank (the schema turns an empty cell's null into '') is null
  const stored = (value: string | null | undefined) => (isBlank(value) ? null : value!.trim())
  const fieldsChanged =
    stored(body.realName) !== existing.realName ||
    stored(body.mobile) !== existing.mobile ||
    body.status !== existing.status
  const changes = {
    position: [missingFrom(row.positionIds, heldPositions), missingFrom(heldPositions, row.positionIds)],
    role: [missingFrom(row.roleIds, heldRoles), missingFrom(heldRoles, row.roleIds)],
    group: [missingFrom(row.groupIds, heldGroups), missingFrom(heldGroups, row.groupIds)],
  } as const
  const linksChanged = Object.values(changes).some(([add, remove]) => add.length + remove.length > 0)
  if (!fieldsChanged && !linksChanged) return 'unchanged'
  // what the row adds: a super admin exported and imported again stays as they were
  await requireSuperAdminAllowed(tx, ctx.allowSuperAdmin, {
    positionIds: changes.position[0],
    roleIds: changes.role[0],
    groupIds: changes.group[0],
  })
  if (fieldsChanged) {
    checkNewUser({ nickName: body.nickName, mobile: body.mobile })
    await updateUser(tx, ctx.power, ctx.caller, body, undefined)
  }
  for (const target of ['position', 'role', 'group'] as const) {
    const [add, remove] = changes[target]
    await linkAll(links, ctx.caller, existing.id, target, add)
    await unlinkAll(links, ctx.caller, existing.id, target, remove)
  }
  return 'updated'
}
