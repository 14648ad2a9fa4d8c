import { eq, sql } from 'drizzle-orm'
import {
  AMS_SERVICE_KEY,
  canonicalPath,
  isPathRefusal,
  matchesUrlPattern,
  MSG,
  ROLE_TYPE,
  unknownService,
  type AuthzCheckBatchBody,
  type AuthzCheckBody,
  type AuthzEffectiveResult,
  type AuthzExplainBody,
  type AuthzExplainResult,
  type AuthzGrant,
  type DataScope,
} from '@amg/contract'
import type { Db } from '../../db/connection'
import { users } from '../../db/schema'
import { scopeInWords } from '../../auth/scope-words'
import type { Authorizer } from '../../auth/authorizer'
import { badRequest, forbidden, notFound } from '../../lib/errors'
import { distinctVia, loadSources, roleCodes } from './sources'

export const USER_NOT_FOUND = '用户不存在'

/** The method as the patterns know it: upper case, and HEAD counted as GET (as the server's own hook does). */
export function normalizeMethod(method: string): string {
  const m = method.toUpperCase()
  return m === 'HEAD' ? 'GET' : m
}

/**
 * The path a question is about, read as forward auth reads a gateway's URI (DESIGN.md §10a: the
 * query string ignored, percent-decoded once), or 400 when a service could read it as another path.
 * `where` names the item of a batch.
 */
export function callPath(raw: string, where = ''): string {
  const path = canonicalPath(raw)
  if (isPathRefusal(path)) throw badRequest(`${where}${path.refused}`)
  return path
}

/** The service a call names: the key given, ams (this server's own API) when none. */
const namedService = (key: string | undefined) => key ?? AMS_SERVICE_KEY

/** The service a call asks about (`namedService`); one that does not exist is a 400. */
export async function serviceOfCall(authz: Authorizer, key: string | undefined): Promise<string> {
  const service = namedService(key)
  if (!(await authz.hasService(service))) throw badRequest(unknownService(service))
  return service
}

/**
 * Whom a check is about (DESIGN.md §10a). Checking yourself needs only the session (a front end asking
 * "may I?" to show its buttons). Checking someone else needs a permission of this server whose
 * pattern matches the check call itself (`checkPath`: the seeded node `authz:check`), like any call;
 * the 权限分析 page's node does not hold it.
 */
async function subjectOf(
  authz: Authorizer,
  callerId: number,
  userId: number | undefined,
  checkPath: string,
): Promise<number> {
  if (userId === undefined || userId === callerId) return callerId
  if (!(await authz.can(callerId, 'POST', checkPath))) throw forbidden(MSG.forbidden)
  return userId
}

/** Whether the user exists and is active: a frozen user can call nothing, whatever their roles. */
async function userStatus(db: Db, userId: number): Promise<number> {
  const [u] = await db.select({ status: users.status }).from(users).where(eq(users.id, userId)).limit(1)
  if (!u) throw notFound(USER_NOT_FOUND)
  return u.status
}

/** A check's answer: the data scope only for an allowed call it was asked for (DESIGN.md §13). */
const checkAnswer = (allowed: boolean, userId: number, scope: DataScope | null | undefined) =>
  allowed && scope ? { allowed, userId, scope } : { allowed, userId }

/**
 * `asUse`: the check was asked by a machine client or an API key (not a console session), so an
 * allowed answer is the checked user's use of the nodes that allowed it (DESIGN.md §21).
 */
export async function check(
  db: Db,
  authz: Authorizer,
  callerId: number,
  body: AuthzCheckBody,
  asUse = false,
) {
  const held = checkFromMemory(authz, callerId, body, asUse)
  if (held) return held
  const path = callPath(body.path)
  const userId = await subjectOf(authz, callerId, body.userId, '/authz/check')
  const service = await serviceOfCall(authz, body.service)
  // the caller's own session proves them active: no query for a check of oneself
  const active = userId === callerId || (await userStatus(db, userId)) === 1
  const method = normalizeMethod(body.method)
  const allowed = active && (await authz.can(userId, method, path, service))
  if (allowed && asUse) authz.used(userId, method, path, service)
  const scope = allowed && body.withScope ? await authz.scopeOf(userId, method, path, service) : null
  return checkAnswer(allowed, userId, scope)
}

/**
 * `check` of oneself answered at once from what memory holds (the service and the caller's access),
 * without a promise; undefined whenever `check` has more to ask (another user, a tree or an access
 * not held). Its errors are `check`'s own: a path refused the same way, first.
 */
export function checkFromMemory(
  authz: Pick<Authorizer, 'hasServiceFromMemory' | 'canFromMemory' | 'scopeFromMemory' | 'used'>,
  callerId: number,
  body: AuthzCheckBody,
  asUse: boolean,
) {
  const path = callPath(body.path)
  if (body.userId !== undefined && body.userId !== callerId) return undefined
  const service = namedService(body.service)
  if (authz.hasServiceFromMemory(service) !== true) return undefined
  const method = normalizeMethod(body.method)
  const allowed = authz.canFromMemory(callerId, method, path, service)
  if (allowed === undefined) return undefined
  if (allowed && asUse) authz.used(callerId, method, path, service)
  const scope = allowed && body.withScope ? authz.scopeFromMemory(callerId, method, path, service) : null
  return checkAnswer(allowed, callerId, scope)
}

export async function checkBatch(
  db: Db,
  authz: Authorizer,
  callerId: number,
  body: AuthzCheckBatchBody,
  asUse = false,
) {
  const paths = body.checks.map((c, i) => callPath(c.path, `第 ${i + 1} 项：`))
  const userId = await subjectOf(authz, callerId, body.userId, '/authz/check-batch')
  const service = await serviceOfCall(authz, body.service)
  const active = userId === callerId || (await userStatus(db, userId)) === 1
  const results: boolean[] = []
  const scopes: (DataScope | null)[] = []
  for (const [i, c] of body.checks.entries()) {
    const method = normalizeMethod(c.method)
    const allowed = active && (await authz.can(userId, method, paths[i], service))
    results.push(allowed)
    if (allowed && asUse) authz.used(userId, method, paths[i], service)
    if (body.withScope) scopes.push(allowed ? await authz.scopeOf(userId, method, paths[i], service) : null)
  }
  return body.withScope ? { results, scopes } : { results }
}

/**
 * Every chain (link → role → node → pattern) that allows the call in the service's namespace, read
 * from the same tables and the same enabled tree the authorizer uses; `allowed` is its own answer.
 */
export async function explain(
  db: Db,
  authz: Authorizer,
  body: AuthzExplainBody,
): Promise<AuthzExplainResult> {
  const path = callPath(body.path)
  const status = await userStatus(db, body.userId)
  const service = await serviceOfCall(authz, body.service)
  const method = normalizeMethod(body.method)
  const sources = await loadSources(db, sql`= ${body.userId}`)
  const codes = await roleCodes(
    db,
    sources.map((s) => s.role.id),
  )
  const tree = await authz.loadEnabledTree()
  const grants: AuthzGrant[] = []
  for (const s of sources) {
    if (s.role.type === ROLE_TYPE.superAdmin) {
      grants.push({ via: s.via, role: s.role, node: null, pattern: { method: '*', uri: '/**' } })
      continue
    }
    for (const code of codes.get(s.role.id) ?? []) {
      const node = tree.get(code)
      if (!node || node.service !== service) continue
      for (const p of node.urlPatternInfos)
        if (matchesUrlPattern(p, method, path))
          grants.push({
            via: s.via,
            role: s.role,
            node: { code: node.code, chName: node.chName },
            pattern: { method: p.method, uri: p.uri },
          })
    }
  }
  const superAdmin = (await authz.resolve(body.userId)).superAdmin
  const allowed = status === 1 && (await authz.can(body.userId, method, path, service))
  // DESIGN.md §13: the call's data scope, and each allowing role's part of it
  const scope = allowed ? await authz.scopeOf(body.userId, method, path, service) : null
  const parts = allowed ? await authz.scopeParts(body.userId, method, path, service) : []
  const roleById = new Map(sources.map((s) => [s.role.id, s.role]))
  const { depts } = await authz.resolve(body.userId)
  const inWords = (s: DataScope) => scopeInWords(db, depts, s)
  const roleScopes = await Promise.all(
    parts.flatMap((p) => {
      const role = roleById.get(p.roleId)
      return role
        ? [
            inWords(p.scope).then((scopeText) => ({
              role,
              dataScope: p.dataScope,
              scope: p.scope,
              scopeText,
            })),
          ]
        : []
    }),
  )
  const scopeText = scope ? await inWords(scope) : null
  return { allowed, superAdmin, grants: status === 1 ? grants : [], scope, scopeText, roleScopes }
}

/**
 * The user's roles with where each comes from, and their enabled nodes of one service (default ams)
 * with the roles that hold each.
 */
export async function effective(
  db: Db,
  authz: Authorizer,
  userId: number,
  serviceKey?: string,
): Promise<AuthzEffectiveResult> {
  await userStatus(db, userId)
  const service = await serviceOfCall(authz, serviceKey)
  const sources = await loadSources(db, sql`= ${userId}`)
  const roleIds = [...new Set(sources.map((s) => s.role.id))]
  const roles = roleIds.map((id) => {
    const mine = sources.filter((s) => s.role.id === id)
    return { ...mine[0].role, via: distinctVia(mine) }
  })
  const codes = await roleCodes(db, roleIds)
  const tree = await authz.loadEnabledTree()
  const holders = new Map<string, number[]>()
  for (const id of roleIds)
    for (const code of codes.get(id) ?? [])
      if (tree.get(code)?.service === service) holders.set(code, [...(holders.get(code) ?? []), id])
  const nodes = [...holders.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([code, ids]) => ({ code, chName: tree.get(code)!.chName, roleIds: ids }))
  return { superAdmin: roles.some((r) => r.type === ROLE_TYPE.superAdmin), roles, nodes }
}
