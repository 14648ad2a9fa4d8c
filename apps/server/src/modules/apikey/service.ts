import { randomBytes } from 'node:crypto'
import { and, count, desc, eq } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import {
  API_KEY_PREFIX,
  MSG,
  type ApiKeyCreated,
  type ApiKeyInsertBody,
  type ApiKeyListBody,
  type ApiKeyRow,
  type PageResult,
} from '@amg/contract'
import type { Db, DbOrTx } from '../../db/connection'
import { apiKeys, users } from '../../db/schema'
import type { PowerGuard } from '../../auth/power'
import { requireWritableUsers, visibleUser, type Caller } from '../../auth/user-scope'
import { badRequest, notFound } from '../../lib/errors'
import { keywordIn } from '../../lib/like'
import { paging, pagedList } from '../../lib/paged'
import { hashToken } from '../../lib/tokens'

/**
 * API keys (DESIGN.md §16). A key acts as its user with that user's whole power and reach, so making
 * or revoking one is a change to that user: the maker's power must cover the user's (§6a) and the user
 * must lie in the maker's reach (§13), exactly as for editing the user. Making a key for oneself gives
 * nothing one does not hold.
 */

/** 256 random bits after the `ak_` mark the auth hook recognises. */
const newApiKey = () => `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`

/** What the list shows of a key: enough to tell it apart, far too little to use. */
const shownPrefix = (key: string) => key.slice(0, API_KEY_PREFIX.length + 4)

async function guardUser(tx: DbOrTx, power: PowerGuard, caller: Caller, userId: number) {
  await requireWritableUsers(tx, caller, [userId])
  await power.require(tx, caller.id, { userIds: [userId] })
}

function expiryOf(body: ApiKeyInsertBody, now: Date): Date | null {
  if (body.expiresAt === undefined || body.expiresAt === null) return null
  const at = new Date(body.expiresAt)
  if (Number.isNaN(at.getTime())) throw badRequest(MSG.apiKeyExpiryInvalid)
  if (at.getTime() <= now.getTime()) throw badRequest(MSG.apiKeyExpiryPast)
  return at
}

export async function insertApiKey(
  db: Db,
  power: PowerGuard,
  caller: Caller,
  body: ApiKeyInsertBody,
): Promise<ApiKeyCreated> {
  const name = body.name.trim()
  if (!name) throw badRequest(MSG.apiKeyNameRequired)
  const expiresAt = expiryOf(body, new Date())
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.id, body.userId))
  if (!user) throw badRequest(MSG.apiKeyUserNotFound)
  const key = newApiKey()
  const id = await db.transaction(async (tx) => {
    await guardUser(tx, power, caller, body.userId)
    const [row] = await tx
      .insert(apiKeys)
      .values({
        userId: body.userId,
        name,
        keyHash: hashToken(key),
        prefix: shownPrefix(key),
        expiresAt,
        createUserId: caller.id,
      })
      .returning({ id: apiKeys.id })
    return row.id
  })
  return { id, key }
}

export async function revokeApiKey(db: Db, power: PowerGuard, caller: Caller, id: number): Promise<void> {
  await db.transaction(async (tx) => {
    const [key] = await tx.select({ userId: apiKeys.userId }).from(apiKeys).where(eq(apiKeys.id, id))
    if (!key) throw notFound(MSG.apiKeyNotFound)
    await guardUser(tx, power, caller, key.userId)
    await tx.delete(apiKeys).where(eq(apiKeys.id, id))
  })
}

const makers = alias(users, 'makers')

/** The keys of the users the caller may read (DESIGN.md §13): a key is its user's, so it lists with them. */
export async function listApiKeys(
  db: Db,
  body: ApiKeyListBody,
  caller: Caller,
): Promise<PageResult<ApiKeyRow>> {
  const where = and(
    body.userId ? eq(apiKeys.userId, body.userId) : undefined,
    visibleUser(caller, apiKeys.userId),
    keywordIn(body.keyword, apiKeys.name, users.nickName),
  )
  return pagedList(
    paging(body),
    (limit, offset) =>
      db
        .select({
          id: apiKeys.id,
          userId: apiKeys.userId,
          nickName: users.nickName,
          name: apiKeys.name,
          prefix: apiKeys.prefix,
          expiresAt: apiKeys.expiresAt,
          lastUsedTime: apiKeys.lastUsedTime,
          createTime: apiKeys.createTime,
          createUserName: makers.nickName,
        })
        .from(apiKeys)
        .innerJoin(users, eq(users.id, apiKeys.userId))
        .leftJoin(makers, eq(makers.id, apiKeys.createUserId))
        .where(where)
        .orderBy(desc(apiKeys.id))
        .limit(limit)
        .offset(offset),
    () =>
      db.select({ total: count() }).from(apiKeys).innerJoin(users, eq(users.id, apiKeys.userId)).where(where),
  )
}
