import { eq } from 'drizzle-orm'
import { checkPassword, MSG, type ChangePasswordBody, type CurrentUser } from '@amg/contract'
import type { Db } from '../../db/connection'
import { users } from '../../db/schema'
import type { Authorizer } from '../../auth/authorizer'
import { hashPassword, verifyPassword } from '../../auth/password'
import { endUserSessions, type SessionUser } from '../../auth/sessions'
import { pause, type LoginThrottle } from '../../auth/login-throttle'
import { badRequest } from '../../lib/errors'

/** The signed-in user as the session cache holds them, with their access: no query once warm. */
export async function getCurrentUser(authz: Authorizer, user: SessionUser): Promise<CurrentUser> {
  const access = await authz.resolve(user.id)
  return {
    id: user.id,
    nickName: user.nickName,
    realName: user.realName,
    status: user.status,
    passwordIsInitial: user.passwordIsInitial,
    roles: access.roles,
    auths: access.auths,
    authCodes: access.authCodes,
    superAdmin: access.superAdmin,
  }
}

export interface PasswordChanger {
  userId: number
  /** the session in use, which survives the change */
  token: string
  address: string
}

/**
 * Own password change: the old one must match; every other session of the user ends. A wrong old
 * password is a guess like a failed sign-in, throttled per user and address.
 */
export async function changeOwnPassword(
  db: Db,
  { userId, token, address }: PasswordChanger,
  throttle: LoginThrottle,
  body: ChangePasswordBody,
) {
  const policy = checkPassword(body.newPassword)
  if (policy) throw badRequest(policy)
  const admitted = throttle.passwordChange(userId, address)
  await pause(admitted.pauseMs)
  const [user] = await db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, userId))
  if (!user || !(await verifyPassword(body.oldPassword, user.passwordHash)))
    throw admitted.refusal(badRequest(MSG.oldPasswordWrong))
  admitted.succeeded()
  if (body.oldPassword === body.newPassword) throw badRequest('新密码不能与原密码相同')
  const passwordHash = await hashPassword(body.newPassword)
  await db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({ passwordHash, passwordIsInitial: 0, updateTime: new Date() })
      .where(eq(users.id, userId))
    await endUserSessions(tx, userId, token)
  })
}
