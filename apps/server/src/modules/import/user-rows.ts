import { eq } from 'drizzle-orm'
import {
  MSG,
  UserInsertBody,
  UserUpdateBody,
  isBlank,
  normalizeMobile,
  normalizeName,
  type ImportMode,
  type SecuritySettings,
} from '@amg/contract'
import type { Tx } from '../../db/connection'
import { users } from '../../db/schema'
import type { PowerGuard } from '../../auth/power'
import type { Caller } from '../../auth/user-scope'
import { badRequest } from '../../lib/errors'
import { hashPassword } from '../../auth/password'
import { requirePolicy } from '../../auth/password-rules'
import { Links, type LinkEntity } from '../links/service'
import { checkNewUser, insertUser, updateUser, type PreparedPassword } from '../user'
import { checkAsBody, type CompileBody } from './request-checks'
import { requireSuperAdminAllowed } from './super-admin-rows'
import { splitNames, type NameBook } from './names'
import {
  byExpiry,
  diffLinks,
  heldLinks,
  requireFutureExpiries,
  resolveLinks,
  ROW_LINK_TARGETS,
  type LinkDiff,
  type RowExpiries,
} from './row-links'

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
  /** the server's zone: a cell's expiry without an offset is a wall time in it (link-cell.ts) */
  timeZone: string
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
  /** the time-bound links among those ids (DESIGN.md §20); the others are permanent */
  expiries: RowExpiries
}

/** The nickName a row names, as stored (the key of duplicates within the file). */
export const rowNickName = (cells: readonly string[]) => normalizeName((cells[0] ?? '').trim())

export function readRow(cells: readonly string[], names: NameBook, timeZone: string): UserRowIntent {
  const text = (i: number) => (cells[i] ?? '').trim()
  const status = STATUS_OF[text(3)]
  if (status === undefined) throw badRequest(MSG.importStatusInvalid)
  const position = resolveLinks(splitNames(text(4)), names.positionByName, '岗位', timeZone)
  const role = resolveLinks(splitNames(text(5)), names.roleByName, '角色', timeZone)
  const group = resolveLinks(splitNames(text(6)), names.groupByName, '用户组', timeZone)
  return {
    nickName: text(0),
    realName: text(1) || null,
    // as the user calls store it: a spreadsheet's full-width digits are digits
    mobile: normalizeMobile(text(2)) || null,
    status,
    password: isBlank(cells[7]) ? null : cells[7],
    positionIds: position.ids,
    roleIds: role.ids,
    groupIds: group.ids,
    expiries: { position: position.expiries, role: role.expiries, group: group.expiries },
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
 * initial password is not touched); a row equal to the user as stored changes nothing. Expiries
 * (DESIGN.md §20) compare to the minute, and go through the link module's rule: linking again
 * lengthens a link or makes it permanent, never shortens it, so an earlier expiry than the stored
 * one leaves the stored one (row-links.ts `diffLinks`).
 */
export async function importUserRow(
  tx: Tx,
  ctx: UserImportContext,
  passwords: JobPasswords,
  cells: readonly string[],
): Promise<RowOutcome> {
  const row = readRow(cells, ctx.names, ctx.timeZone)
  const links = new Links(tx, ctx.power)
  const [existing] = await tx
    .select({ id: users.id, realName: users.realName, mobile: users.mobile, status: users.status })
    .from(users)
    .where(eq(users.nickName, normalizeName(row.nickName)))
  if (existing && ctx.mode === 'upsert') return updateFromRow(tx, links, ctx, existing, row)

  const body = newUserBody(ctx, row)
  await requireSuperAdminAllowed(tx, ctx.allowSuperAdmin, row)
  const positionExpiry = new Map([...row.expiries.position].map(([id, { at }]) => [id, at]))
  const id = await insertUser(
    tx,
    ctx.power,
    await passwords.prepare(row.password),
    ctx.caller,
    body,
    positionExpiry,
  )
  await linkAll(links, ctx.caller, id, 'role', withExpiries(row.roleIds, row.expiries.role))
  await linkAll(links, ctx.caller, id, 'group', withExpiries(row.groupIds, row.expiries.group))
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
  // then the link calls' own first check: an expiry lies ahead
  requireFutureExpiries(row.expiries)
  return body
}

/** The ids, each with its expiry from the row (null: permanent). */
const withExpiries = (ids: readonly number[], expiries: RowExpiries[keyof RowExpiries]) =>
  new Map(ids.map((id) => [id, expiries.get(id)?.at ?? null]))

/** Links through the link module, one call per distinct expiry (a call takes one for all its ids). */
const linkAll = async (
  links: Links,
  caller: Caller,
  userId: number,
  target: LinkEntity,
  ids: ReadonlyMap<number, Date | null>,
) => {
  for (const [expiresAt, targetIds] of byExpiry(ids))
    await links.link({ owner: 'user', ownerId: userId, target, targetIds, caller, expiresAt })
}

const unlinkAll = async (links: Links, caller: Caller, userId: number, target: LinkEntity, ids: number[]) => {
  if (ids.length) await links.unlink({ owner: 'user', ownerId: userId, target, targetIds: ids, caller })
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
  const held = await heldLinks(tx, existing.id, ctx.caller)
  requireFutureExpiries(row.expiries, held)
  // as the update stores them: a blank (the schema turns an empty cell's null into '') is null
  const stored = (value: string | null | undefined) => (isBlank(value) ? null : value!.trim())
  const fieldsChanged =
    stored(body.realName) !== existing.realName ||
    stored(body.mobile) !== existing.mobile ||
    body.status !== existing.status
  const changes: Record<(typeof ROW_LINK_TARGETS)[number], LinkDiff> = {
    position: diffLinks(row.positionIds, row.expiries.position, held.position),
    role: diffLinks(row.roleIds, row.expiries.role, held.role),
    group: diffLinks(row.groupIds, row.expiries.group, held.group),
  }
  const linksChanged = Object.values(changes).some((d) => d.link.size + d.unlink.length > 0)
  if (!fieldsChanged && !linksChanged) return 'unchanged'
  // what the row adds: a super admin exported and imported again stays as they were
  await requireSuperAdminAllowed(tx, ctx.allowSuperAdmin, {
    positionIds: changes.position.added,
    roleIds: changes.role.added,
    groupIds: changes.group.added,
  })
  if (fieldsChanged) {
    checkNewUser({ nickName: body.nickName, mobile: body.mobile })
    await updateUser(tx, ctx.power, ctx.caller, body, undefined)
  }
  for (const target of ROW_LINK_TARGETS) {
    await linkAll(links, ctx.caller, existing.id, target, changes[target].link)
    await unlinkAll(links, ctx.caller, existing.id, target, changes[target].unlink)
  }
  return 'updated'
}
