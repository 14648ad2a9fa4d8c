import { and, eq } from 'drizzle-orm'
import {
  MSG,
  POLICY_MSG,
  type Restriction,
  type SecuritySettings,
  userApi,
  type ChangePasswordBody,
  type CurrentUser,
  type UrlPattern,
} from '@amg/contract'
import type { Db } from '../../db/connection'
import { sessions, users } from '../../db/schema'
import { hashToken } from '../../lib/tokens'
import { recordPasswordSet, requireNotReused, requirePolicy } from '../../auth/password-rules'
import { readSecuritySettings } from '../../auth/security-settings'
import type { Authorizer } from '../../auth/authorizer'
import type { EffectiveAccess } from '../../auth/access-load'
import { namedScopeRoots } from '../../auth/scope-words'
import { hashPassword, verifyPassword } from '../../auth/password'
import { endUserSessions } from '../../auth/sessions'
import type { SessionUser } from '../../cache/session-cache'
import { judge, type LoginThrottle } from '../../auth/login-throttle'
import { badRequest, forbidden } from '../../lib/errors'

/** Each pattern once (several nodes may grant the same call). */
const distinctPatterns = (patterns: readonly UrlPattern[]): UrlPattern[] => [
  ...new Map(patterns.map((p) => [`${p.method.toUpperCase()} ${p.uri}`, p])).values(),
]

/**
 * The signed-in user as the session cache holds them, with the access the caller resolved (so that the
 * answer and what it is kept with agree): no query once warm.
 */
export async function getCurrentUser(
  db: Db,
  authz: Authorizer,
  user: SessionUser,
  access: EffectiveAccess,
): Promise<CurrentUser> {
  return {
    id: user.id,
    nickName: user.nickName,
    realName: user.realName,
    status: user.status,
    passwordIsInitial: user.passwordIsInitial,
    ...(user.restricted ? { restricted: user.restricted } : {}),
    mfaEnabled: user.mfaEnabled,
    roles: access.roles,
    auths: access.auths,
    authCodes: access.authCodes,
    // a super admin makes every call (`canCall` asks `superAdmin` first): listing every pattern of the
    // tree made their answer, the console's most frequent read, four times larger and compressed each time
    calls: access.superAdmin ? [] : distinctPatterns(access.backEnd),
    superAdmin: access.superAdmin,
    manageScope: await manageScopeOf(db, authz, user.id, access),
  }
}

/**
 * 管理范围 (DESIGN.md §13): the reach of the user list call, the one every user screen starts from,
 * named by its top departments; null when the user may not list users or reaches all data.
 */
async function manageScopeOf(
  db: Db,
  authz: Authorizer,
  userId: number,
  access: EffectiveAccess,
): Promise<CurrentUser['manageScope']> {
  const { method, path } = userApi.list.route
  const scope = await authz.scopeOf(userId, [method].flat()[0], path)
  if (!scope || scope.all) return null
  return { self: scope.self, roots: await namedScopeRoots(db, access.depts, scope) }
}

export interface PasswordChanger {
  userId: number
  /** the session in use, which survives the change */
  token: string
  address: string
}

/** What the own-password change settled before its transaction. */
export interface CheckedPasswordChange {
  /** the stored hash the old password was checked against */
  oldHash: string
  newHash: string
  settings: SecuritySettings
}

/**
 * Own password change, first step, before the write's transaction opens (password hashes take most
 * of a second): the new password's rules, the throttle, the old password's check, the history
 * (DESIGN.md §14) and the new hash. A wrong old password is a guess like a failed sign-in,
 * throttled per user and address.
 */
export async function checkPasswordChange(
  db: Db,
  { userId, address }: Pick<PasswordChanger, 'userId' | 'address'>,
  throttle: LoginThrottle,
  body: ChangePasswordBody,
): Promise<CheckedPasswordChange> {
  // the policy as set (DESIGN.md §14) before any guess is counted; the user's name is checked below
  const settings = await readSecuritySettings(db)
  requirePolicy(settings, body.newPassword)
  const admitted = await throttle.passwordChange(userId, address)
  const { user, passwordOk } = await judge(admitted, async () => {
    const [user] = await db
      .select({
        passwordHash: users.passwordHash,
        nickName: users.nickName,
        serviceAccount: users.serviceAccount,
      })
      .from(users)
      .where(eq(users.id, userId))
    const judged = !!user && !user.serviceAccount
    return { user, passwordOk: judged && (await verifyPassword(body.oldPassword, user!.passwordHash)) }
  })
  // a machine token acts as its service account, which holds no password and is given none (DESIGN.md §11)
  if (user?.serviceAccount) throw forbidden(MSG.serviceAccountNoPassword)
  if (!user || !passwordOk) throw admitted.refusal(badRequest(MSG.oldPasswordWrong))
  await admitted.succeeded()
  if (body.oldPassword === body.newPassword) throw badRequest(POLICY_MSG.sameAsOld)
  requirePolicy(settings, body.newPassword, user.nickName)
  await requireNotReused(db, settings, userId, user.passwordHash, body.newPassword)
  return { oldHash: user.passwordHash, newHash: await hashPassword(body.newPassword), settings }
}

/**
 * Own password change, second step, in the transaction: the new hash replaces the one checked (a
 * password changed meanwhile makes the old one wrong), the old one joins the history, and every other
 * session of the user ends. The session in use keeps going, restricted now only if two-step sign-in
 * must still be enrolled (DESIGN.md §14).
 */
export async function changeOwnPassword(
  db: Db,
  { userId, token }: Pick<PasswordChanger, 'userId' | 'token'>,
  checked: CheckedPasswordChange,
  enrolmentDue: (userId: number) => Promise<Restriction | null>,
) {
  await db.transaction(async (tx) => {
    const changed = await tx
      .update(users)
      .set({ passwordHash: checked.newHash, passwordIsInitial: 0, updateTime: new Date() })
      .where(and(eq(users.id, userId), eq(users.passwordHash, checked.oldHash)))
      .returning({ id: users.id })
    if (changed.length === 0) throw badRequest(MSG.oldPasswordWrong)
    await recordPasswordSet(tx, checked.settings, userId, checked.oldHash, false)
    await endUserSessions(tx, userId, token)
    const restricted = await enrolmentDue(userId)
    await tx
      .update(sessions)
      .set({ restricted })
      .where(eq(sessions.tokenHash, hashToken(token)))
  })
}
