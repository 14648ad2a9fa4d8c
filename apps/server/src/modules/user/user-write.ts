import { eq } from 'drizzle-orm'
import { isReservedUserName, MSG, type UserInsertBody, type UserUpdateBody } from '@amg/contract'
import type { Db, DbOrTx, Transactable } from '../../db/connection'
import { positionUsers, users } from '../../db/schema'
import { guardedChange } from '../../auth/super-admin-guard'
import { endUserSessions } from '../../auth/sessions'
import type { PowerGuard } from '../../auth/power'
import { requirePositionsInScope, requireWritableUsers, type Caller } from '../../auth/user-scope'
import { linkGrants, writeWithinReach } from '../links/reach-grants'
import { requireExisting } from '../links/existing'
import { badRequest, conflict, forbidden } from '../../lib/errors'
import { recordRow } from '../../lib/record-row'
import {
  checkNewUser,
  checkUserUpdate,
  ensureNickNameFree,
  onNickNameTaken,
  optionalMobile,
  optionalText,
  requireDirectoryFieldsKept,
  USER_MSG,
} from './user-rules'
import {
  rememberReplaced,
  resetPasswordColumns,
  storedPasswordHash,
  type PreparedPassword,
} from './user-password'

/**
 * A user's creation, change (status and password reset included) and deletion. Each runs the power
 * check (DESIGN.md §6a), the data-scope check (§13) and, where a change can take the last super
 * admin's power, the last-super-admin guard; the operation log and the change events follow from
 * the database triggers of the rows written.
 */

/**
 * POST /user/insert. `positionIds`: the positions the new user holds, linked in the same transaction;
 * a scoped administrator (DESIGN.md §13) must give at least one, each in a department within scope.
 * Holding a position gives its roles, so the power check names them (DESIGN.md §6a).
 */
export async function insertUser(
  db: Transactable,
  power: PowerGuard,
  password: PreparedPassword,
  caller: Caller,
  body: UserInsertBody,
  /** an import row's time-bound positions (DESIGN.md §20): until when each holds; the others are permanent */
  positionExpiry?: ReadonlyMap<number, Date>,
): Promise<number> {
  const nickName = checkNewUser(body)
  const positionIds = [...new Set(body.positionIds ?? [])]
  if (!caller.scope.all && positionIds.length === 0) throw forbidden(MSG.positionRequiredInScope)
  await ensureNickNameFree(db, nickName)
  return db.transaction(async (tx) => {
    // the caller's access read once, before the write: the power check and the reach check judge it
    const access = await power.callerAccess(tx, caller.id)
    if (positionIds.length) {
      await requireExisting(tx, 'position', positionIds, true)
      await requirePositionsInScope(tx, caller, positionIds)
      await power.require(tx, caller.id, { positionIds }, access)
    }
    const write = async () => {
      const id = await insertUserRow(tx, nickName, password, caller.id, body)
      if (positionIds.length)
        await tx.insert(positionUsers).values(
          positionIds.map((positionId) => ({
            positionId,
            userId: id,
            expiresAt: positionExpiry?.get(positionId) ?? null,
          })),
        )
      return id
    }
    // the positions' roles reach the new user's departments: within the caller's reach (DESIGN.md §13)
    return writeWithinReach(tx, power, access, write, async (id) =>
      positionIds.length ? linkGrants(tx, 'user', [id], 'position', positionIds) : [],
    )
  })
}

async function insertUserRow(
  db: DbOrTx,
  nickName: string,
  password: PreparedPassword,
  operatorId: number,
  body: UserInsertBody,
): Promise<number> {
  const [row] = await db
    .insert(users)
    .values(newUserValues(nickName, password, operatorId, body))
    .returning({ id: users.id })
    .catch(onNickNameTaken)
  return row.id
}

/** A new user's row as POST /user/insert writes it (an import writes many at once with the same values). */
export function newUserValues(
  nickName: string,
  password: PreparedPassword,
  operatorId: number,
  body: UserInsertBody,
): typeof users.$inferInsert {
  return {
    nickName,
    realName: optionalText(body.realName) ?? null,
    mobile: optionalMobile(body.mobile) ?? null,
    status: body.status ?? 1,
    passwordHash: password.hash,
    passwordIsInitial: password.initial ? 1 : 0,
    // set by an administrator, given or initial: the user changes it at the next sign-in (§14)
    mustChangePassword: 1,
    createUserId: operatorId,
    updateUserId: operatorId,
  }
}

/**
 * Any change to a user puts that user's whole power at stake (DESIGN.md §6a). `passwordHash`: the new
 * password's, from `prepareUserUpdate`, when the body gives one.
 */
export async function updateUser(
  db: Transactable,
  power: PowerGuard,
  operator: Caller,
  body: UserUpdateBody,
  passwordHash: string | undefined,
): Promise<void> {
  const self = body.id === operator.id
  const nickName = checkUserUpdate(body)
  const existing = await recordRow(db, 'user', body.id, {
    nickName: users.nickName,
    status: users.status,
    serviceAccount: users.serviceAccount,
    source: users.source,
    realName: users.realName,
    mobile: users.mobile,
  })
  requireDirectoryFieldsKept(existing, nickName, body, passwordHash)
  // no one else takes a reserved name (DESIGN.md §11); one held from before the rule may be kept (the
  // user can still be frozen or renamed), and a service account keeps its own
  if (!existing.serviceAccount && nickName !== existing.nickName && isReservedUserName(nickName))
    throw badRequest(MSG.nickNameReserved)
  // it holds no password: none is set for it, so it can never sign in (reset included)
  if (existing.serviceAccount && passwordHash) throw badRequest(MSG.serviceAccountNoPassword)
  if (self && body.status === 2) throw conflict(USER_MSG.freezeSelf)
  await ensureNickNameFree(db, nickName, body.id)
  await guardedChange(db, async (tx) => {
    await requireWritableUsers(tx, operator, [body.id])
    await power.require(tx, operator.id, { userIds: [body.id] })
    const replaced = passwordHash ? await storedPasswordHash(tx, body.id) : undefined
    await tx
      .update(users)
      .set({
        nickName,
        status: body.status,
        realName: optionalText(body.realName),
        mobile: optionalMobile(body.mobile),
        ...(passwordHash ? resetPasswordColumns(passwordHash) : {}),
        updateTime: new Date(),
        updateUserId: operator.id,
      })
      .where(eq(users.id, body.id))
    if (replaced !== undefined) await rememberReplaced(tx, body.id, replaced)
    if (body.status === 2 && existing.status !== 2) await endUserSessions(tx, body.id)
    else if (passwordHash) await endUserSessions(tx, body.id)
  }).catch(onNickNameTaken)
}

export async function deleteUser(db: Db, power: PowerGuard, operator: Caller, userId: number): Promise<void> {
  if (userId === operator.id) throw conflict(MSG.deleteSelf)
  await recordRow(db, 'user', userId, { id: users.id })
  await guardedChange(db, async (tx) => {
    await requireWritableUsers(tx, operator, [userId])
    await power.require(tx, operator.id, { userIds: [userId] })
    await tx.delete(users).where(eq(users.id, userId))
  })
}
