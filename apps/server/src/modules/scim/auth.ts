import type { FastifyInstance, FastifyRequest } from 'fastify'
import { API_KEY_PREFIX } from '@amg/contract'
import { FROZEN } from '../../cache/session-cache'
import { LastSeen } from '../../auth/last-seen'
import { callerOfCall, type Caller } from '../../auth/user-scope'
import { currentUser } from '../../lib/context'
import { hashToken } from '../../lib/tokens'
import { ScimError, SCIM_MSG } from './errors'

/**
 * Who may call /scim/v2 (DESIGN.md §22): a bearer API key (§16) whose user holds the `scim`
 * permission, else 401 (no key, a bad, expired or revoked key, a frozen user) or 403. Each call then
 * needs the ordinary permission of what it reads or changes: the authorizer is asked whether the
 * key's user may make the console's equivalent call (`POST /user/insert` for a new user …), and the
 * data scope of that call (§13) is the one the write is judged with.
 */

/** The permission node that opens /scim/v2 (db/seed-auth-tree.ts). */
export const SCIM_CODE = 'scim'

const BEARER = /^Bearer\s+(\S{20,4096})\s*$/i

export function installScimAuth(app: FastifyInstance) {
  const { sessions, authz, db } = app.ctx
  const keyLastUsed = new LastSeen(db, 'apiKeys')
  app.decorateRequest('user', null)
  app.decorateRequest('token', null)

  app.addHook('onRequest', async (req) => {
    const bearer = BEARER.exec(req.headers.authorization ?? '')?.[1]
    if (!bearer?.startsWith(API_KEY_PREFIX)) throw new ScimError(401, undefined, SCIM_MSG.unauthorized)
    const hash = hashToken(bearer)
    const user = sessions.heldApiKey(hash) ?? (await sessions.lookupApiKey(hash))
    if (!user || user === FROZEN) throw new ScimError(401, undefined, SCIM_MSG.unauthorized)
    req.user = user
    keyLastUsed
      .touch(hash)
      ?.catch((err: Error) => req.log.warn({ err: { message: err.message } }, 'last used not written'))
    const access = await authz.resolve(user.id)
    if (!access.superAdmin && !access.authCodes.includes(SCIM_CODE))
      throw new ScimError(403, undefined, SCIM_MSG.noScim)
  })
}

/**
 * The key's user as the caller of the console's call `method path` (path without /api), with that
 * call's data scope; 403 when they may not make it.
 */
export async function callerFor(
  app: FastifyInstance,
  req: FastifyRequest,
  method: string,
  path: string,
): Promise<Caller> {
  const id = currentUser(req).id
  if (!(await app.ctx.authz.can(id, method, path)))
    throw new ScimError(403, undefined, `没有权限：该操作需要 ${method} /api${path} 的权限`)
  return callerOfCall(app.ctx.authz, id, method, path)
}
