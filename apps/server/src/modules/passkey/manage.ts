import { and, desc, eq } from 'drizzle-orm'
import { PASSKEY_MSG, type PasskeyItem } from '@amg/contract'
import type { DbOrTx } from '../../db/connection'
import { passkeys, users } from '../../db/schema'
import { badRequest, notFound } from '../../lib/errors'
import type { Authorizer } from '../../auth/authorizer'
import type { PowerGuard } from '../../auth/power'
import { callerOfCall, requireWritableUsers } from '../../auth/user-scope'
import { restrictionRefusal } from '../../auth/restriction'
import type { SessionUser } from '../../cache/session-cache'
import { USER_MSG } from '../user'

/** Whose passkeys a call is about, and whether that is someone other than the caller. */
export interface Owner {
  id: number
  nickName: string
  other: boolean
}

/**
 * The owner of the passkeys a call names (DESIGN.md §23): the caller without `userId`; another user
 * only for a caller who may write that user — the data scope of 修改用户 (§13) and no more power than
 * the caller holds (§6a). A restricted session handles nothing but its own.
 */
export async function ownerOf(
  db: DbOrTx,
  guards: { authz: Authorizer; power: PowerGuard },
  caller: SessionUser,
  userId: number | undefined,
): Promise<Owner> {
  if (!userId || userId === caller.id) return { id: caller.id, nickName: caller.nickName, other: false }
  if (caller.restricted) throw restrictionRefusal(caller.restricted)
  const [target] = await db
    .select({ id: users.id, nickName: users.nickName })
    .from(users)
    .where(eq(users.id, userId))
  if (!target) throw notFound(USER_MSG.notFound)
  const operator = await callerOfCall(guards.authz, caller.id, 'PUT', '/user/update')
  await requireWritableUsers(db, operator, [userId])
  await guards.power.require(db, caller.id, { userIds: [userId] })
  return { ...target, other: true }
}

/** A user's passkeys, newest first. */
export async function listPasskeys(db: DbOrTx, userId: number): Promise<PasskeyItem[]> {
  const rows = await db
    .select({
      id: passkeys.id,
      name: passkeys.name,
      createTime: passkeys.createTime,
      lastUsedTime: passkeys.lastUsedTime,
    })
    .from(passkeys)
    .where(eq(passkeys.userId, userId))
    .orderBy(desc(passkeys.id))
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    createTime: r.createTime.toISOString(),
    lastUsedTime: r.lastUsedTime?.toISOString() ?? null,
  }))
}

/** Renames one of the owner's passkeys; answers its former name. */
export async function renamePasskey(db: DbOrTx, ownerId: number, id: number, name: string): Promise<string> {
  const trimmed = name.trim()
  if (!trimmed) throw badRequest(PASSKEY_MSG.nameRequired)
  const [before] = await db
    .select({ name: passkeys.name })
    .from(passkeys)
    .where(and(eq(passkeys.id, id), eq(passkeys.userId, ownerId)))
  if (!before) throw notFound(PASSKEY_MSG.notFound)
  await db
    .update(passkeys)
    .set({ name: trimmed })
    .where(and(eq(passkeys.id, id), eq(passkeys.userId, ownerId)))
  return before.name
}

/** Deletes one of the owner's passkeys; answers its name. */
export async function deletePasskey(db: DbOrTx, ownerId: number, id: number): Promise<string> {
  const [gone] = await db
    .delete(passkeys)
    .where(and(eq(passkeys.id, id), eq(passkeys.userId, ownerId)))
    .returning({ name: passkeys.name })
  if (!gone) throw notFound(PASSKEY_MSG.notFound)
  return gone.name
}
