import { eq, sql } from 'drizzle-orm'
import {
  canonicalPath,
  isPathRefusal,
  matchesUrlPattern,
  MSG,
  type AuthzCheckBatchBody,
  type AuthzCheckBody,
  type AuthzEffectiveResult,
  type AuthzExplainBody,
  type AuthzExplainResult,
  type AuthzGrant,
} from '@amg/contract'
import type { Db } from '../../db/connection'
import { users } from '../../db/schema'
import type { Authorizer } from '../../auth/authorizer'
import { badRequest, forbidden, notFound } from '../../lib/errors'
import { distinctVia, loadSources, roleCodes } from './sources'

export const AUTHZ_CHECK_CODE = 'authz:check'
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

/** Checking someone else needs `authz:check` (or super admin); checking yourself needs nothing more. */
async function subjectOf(authz: Authorizer, callerId: number, userId: number | undefined): Promise<number> {
  if (userId === undefined || userId === callerId) return callerId
  const caller = await authz.resolve(callerId)
  if (!caller.superAdmin && !caller.authCodes.includes(AUTHZ_CHECK_CODE)) throw forbidden(MSG.forbidden)
  return userId
}

/** Whether the user exists and is active: a frozen user can call nothing, whatever their roles. */
async function userStatus(db: Db, userId: number): Promise<number> {
  const [u] = await db.select({ status: users.status }).from(users).where(eq(users.id, userId)).limit(1)
  if (!u) throw notFound(USER_NOT_FOUND)
  return u.status
}

export async function check(db: Db, authz: Authorizer, callerId: number, body: AuthzCheckBody) {
  const path = callPath(body.path)
  const userId = await subjectOf(authz, callerId, body.userId)
  // the caller's own session proves them active: no query for a check of oneself
  const active = userId === callerId || (await userStatus(db, userId)) === 1
  const allowed = active && (await authz.can(userId, normalizeMethod(body.method), path))
  return { allowed, userId }
}

export async function checkBatch(db: Db, authz: Authorizer, callerId: number, body: AuthzCheckBatchBody) {
  const paths = body.checks.map((c, i) => callPath(c.path, `第 ${i + 1} 项：`))
  const userId = await subjectOf(authz, callerId, body.userId)
  const active = (await userStatus(db, userId)) === 1
  const results: boolean[] = []
  for (const [i, c] of body.checks.entries())
    results.push(active && (await authz.can(userId, normalizeMethod(c.method), paths[i])))
  return { results }
}

/**
 * Every chain (link → role → node → pattern) that allows the call, read from the same tables and
 * the same enabled tree the authorizer uses; `allowed` is the authorizer's own answer.
 */
export async function explain(
  db: Db,
  authz: Authorizer,
  body: AuthzExplainBody,
): Promise<AuthzExplainResult> {
  const path = callPath(body.path)
  const status = await userStatus(db, body.userId)
  const method = normalizeMethod(body.method)
  const sources = await loadSources(db, sql`= ${body.userId}`)
  const codes = await roleCodes(
    db,
    sources.map((s) => s.role.id),
  )
  const tree = await authz.loadEnabledTree()
  const grants: AuthzGrant[] = []
  for (const s of sources) {
    if (s.role.type === 1) {
      grants.push({ via: s.via, role: s.role, node: null, pattern: { method: '*', uri: '/**' } })
      continue
    }
    for (const code of codes.get(s.role.id) ?? []) {
      const node = tree.get(code)
      if (!node) continue
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
  const allowed = status === 1 && (await authz.can(body.userId, method, path))
  return { allowed, superAdmin, grants: status === 1 ? grants : [] }
}

/** The user's roles with where each comes from, and their enabled nodes with the roles that hold each. */
export async function effective(db: Db, authz: Authorizer, userId: number): Promise<AuthzEffectiveResult> {
  await userStatus(db, userId)
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
      if (tree.has(code)) holders.set(code, [...(holders.get(code) ?? []), id])
  const nodes = [...holders.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([code, ids]) => ({ code, chName: tree.get(code)!.chName, roleIds: ids }))
  return { superAdmin: roles.some((r) => r.type === 1), roles, nodes }
}
