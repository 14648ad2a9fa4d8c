import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { MSG, passwordPolicyOf, securitySettingsProblem, settingsApi } from '@amg/contract'
import { ok } from '../../lib/reply'
import { route } from '../../lib/route'
import { badRequest } from '../../lib/errors'
import { readSecuritySettings, writeSecuritySettings } from '../../auth/security-settings'

/** The security settings (DESIGN.md §14): read and replaced whole; the change is in the operation log. */
export const settingsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.ctx

  route(app, settingsApi.getSecurity, async () => ok(await readSecuritySettings(db)))

  // any signed-in user, restricted sessions included (the forced password change shows the rules)
  route(app, settingsApi.getPasswordPolicy, async () => ok(passwordPolicyOf(await readSecuritySettings(db))))

  route(app, settingsApi.putSecurity, async (req) => {
    const problem = securitySettingsProblem(req.body)
    if (problem) throw badRequest(problem)
    await writeSecuritySettings(db, req.body)
    return ok(null, MSG.updated)
  })
}
