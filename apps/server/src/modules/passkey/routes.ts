import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { eq } from 'drizzle-orm'
import { PASSKEY_MSG, passkeyApi } from '@amg/contract'
import { ok } from '../../lib/reply'
import { route } from '../../lib/route'
import { currentUser } from '../../lib/context'
import { hashToken } from '../../lib/tokens'
import { sessions } from '../../db/schema'
import { endUserSessions } from '../../auth/sessions'
import type { AuditNote } from '../../audit/operation-log'
import { relyingPartyOf } from './relying-party'
import { registerPasskey, registrationOptions } from './register'
import { deletePasskey, listPasskeys, ownerOf, renamePasskey, type Owner } from './manage'
import { passkeyLoginRoutes } from './login-routes'

/**
 * The log row of a passkey change (DESIGN.md §9): about the user whose passkeys changed, named as
 * they were, with the passkey's name before and after. The table stages nothing the log names.
 */
const passkeyNote = (
  owner: Pick<Owner, 'id' | 'nickName'>,
  before: string | null,
  after: string | null,
): AuditNote => ({
  resourceId: String(owner.id),
  changes: [
    { field: 'passkey', before, after, target: { type: 'user', id: owner.id, name: owner.nickName } },
  ],
})

/** Passkeys (DESIGN.md §23): one's own, an administrator's care of another user's, and sign-in. */
export const passkeyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, config, authz, power } = app.ctx
  const guards = { authz, power }

  route(app, passkeyApi.registerOptions, async (req) =>
    ok(await registrationOptions(db, relyingPartyOf(config, req), currentUser(req).id)),
  )

  route(app, passkeyApi.registerVerify, async (req) => {
    const me = currentUser(req)
    const id = await registerPasskey(db, relyingPartyOf(config, req), me.id, req.body)
    // a session held back until a passkey (or any second factor: a passkey is one) was enrolled is free now
    if (me.restricted === 'passkey_enroll' || me.restricted === 'mfa_enroll')
      await db
        .update(sessions)
        .set({ restricted: null })
        .where(eq(sessions.tokenHash, hashToken(req.token!)))
    req.auditNote = passkeyNote(me, null, req.body.name.trim())
    return ok({ id }, PASSKEY_MSG.registered)
  })

  route(app, passkeyApi.list, async (req) => {
    const owner = await ownerOf(db, guards, currentUser(req), req.body.userId)
    return ok({ list: await listPasskeys(db, owner.id) })
  })

  route(app, passkeyApi.update, async (req) => {
    const owner = await ownerOf(db, guards, currentUser(req), req.body.userId)
    const before = await renamePasskey(db, owner.id, req.body.id, req.body.name)
    req.auditNote = passkeyNote(owner, before, req.body.name.trim())
    return ok(null, PASSKEY_MSG.renamed)
  })

  route(app, passkeyApi.delete, async (req) => {
    const owner = await ownerOf(db, guards, currentUser(req), req.query.userId)
    const name = await deletePasskey(db, owner.id, req.query.id)
    // a passkey removed by an administrator (lost, stolen): whoever holds it holds no session either
    if (owner.other) await endUserSessions(db, owner.id)
    req.auditNote = passkeyNote(owner, name, null)
    return ok(null, PASSKEY_MSG.removed)
  })

  await passkeyLoginRoutes(app)
}
