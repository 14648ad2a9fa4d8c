import type { IncomingHttpHeaders } from 'node:http'
import { API_PREFIX, AUTH_HEADER, MSG, TOKEN_STORAGE_KEY } from '@amg/contract'
import { AppError, badRequest, forbidden, unauthorized } from '../../lib/errors'
import type { Authorizer } from '../../auth/authorizer'
import type { SessionCache } from '../../auth/session-cache'
import type { SessionUser } from '../../auth/sessions'
import { normalizeMethod, stripQuery } from './service'

/** Where gateways ask (DESIGN.md §10), and the methods it answers: a gateway asks with the original one. */
export const FORWARD_URL = '/authz/forward'
export const FORWARD_PATH = `${API_PREFIX}${FORWARD_URL}`
export const FORWARD_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'] as const

export const FORWARD_MISSING_CALL =
  '缺少原始请求的方法或路径（X-Original-Method/X-Original-URI 或 X-Forwarded-Method/X-Forwarded-Uri）'
export const FORWARD_TWO_CALLS =
  '原始请求的方法或路径前后不一致（X-Original-* 与 X-Forwarded-* 指向不同的请求）'
export const FORWARD_BAD_METHOD = '原始请求的方法不正确'
export const FORWARD_BAD_URI = '原始请求的路径不正确，必须以 / 开头'

const one = (value: string | string[] | undefined): string | undefined => {
  const v = Array.isArray(value) ? value[0] : value
  return v === undefined || v.trim() === '' ? undefined : v.trim()
}

const hasControlChar = (s: string) => [...s].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)

/** One cookie's value from a Cookie header (no dependency: `name=value; name2=value2`). */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined
  for (const part of header.split(';')) {
    const eq = part.indexOf('=')
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue
    let value = part.slice(eq + 1).trim()
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1)
    try {
      value = decodeURIComponent(value)
    } catch {
      // a malformed escape: keep the raw value, which then simply matches no session
    }
    return value || undefined
  }
  return undefined
}

/** The end user's token: `x-auth-token`, `Authorization: Bearer …`, or the cookie `Authorization`. */
export function forwardedToken(headers: IncomingHttpHeaders): string | undefined {
  const own = one(headers[AUTH_HEADER])
  if (own) return own
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(one(headers.authorization) ?? '')
  if (bearer) return bearer[1]
  const cookie = cookieValue(one(headers.cookie), TOKEN_STORAGE_KEY)
  return cookie?.replace(/^Bearer\s+/i, '') || undefined
}

/**
 * The call the gateway is asking about: nginx's `X-Original-Method` + `X-Original-URI`, or
 * Traefik's / Caddy's `X-Forwarded-Method` + `X-Forwarded-Uri`. Each gateway sets its own pair but
 * passes the client's other headers on, so a client could add the other pair naming a call it may
 * make: when both pairs are present they must name the same call, or the answer is 403 (a gateway
 * turns any other refusal into a 500). The path is
 * taken as the other service sees it — an `/api/` prefix is kept — and the query string is dropped.
 * Dot segments are refused: the upstream may resolve `/a/../admin` to `/admin` after we matched `/a/**`.
 */
export function forwardedCall(headers: IncomingHttpHeaders): { method: string; path: string } {
  const original = { method: one(headers['x-original-method']), uri: one(headers['x-original-uri']) }
  const forwarded = { method: one(headers['x-forwarded-method']), uri: one(headers['x-forwarded-uri']) }
  const named = (pair: typeof original) => pair.method !== undefined || pair.uri !== undefined
  if (
    named(original) &&
    named(forwarded) &&
    (original.method !== forwarded.method || original.uri !== forwarded.uri)
  )
    throw new AppError(403, FORWARD_TWO_CALLS)
  const { method, uri } = named(original) ? original : forwarded
  if (!method || !uri) throw badRequest(FORWARD_MISSING_CALL)
  if (!/^[A-Za-z]{1,16}$/.test(method)) throw badRequest(FORWARD_BAD_METHOD)
  const path = stripQuery(uri).split('#')[0]
  if (!path.startsWith('/') || path.length > 2048 || hasControlChar(path)) throw badRequest(FORWARD_BAD_URI)
  const dotSegment = path.split('/').some((seg) => /^(\.|%2e){1,2}$/i.test(seg))
  if (dotSegment) throw badRequest(FORWARD_BAD_URI)
  return { method: normalizeMethod(method), path }
}

/**
 * The one answer to a gateway's question: the end user whose session the forwarded headers carry,
 * when that user may make the forwarded call; otherwise the AppError to answer (401 without a valid
 * session, 400 for a missing or malformed call, 403 when no permission matches). From memory once warm.
 */
export async function forwardedUser(
  sessions: Pick<SessionCache, 'find'>,
  authz: Pick<Authorizer, 'can'>,
  headers: IncomingHttpHeaders,
): Promise<SessionUser> {
  const token = forwardedToken(headers)
  const user = token ? await sessions.find(token) : null
  if (!user) throw unauthorized(MSG.unauthorized)
  const call = forwardedCall(headers)
  if (!(await authz.can(user.id, call.method, call.path))) throw forbidden(MSG.forbidden)
  return user
}

/** What a 200 tells the gateway about the user. Header values must be ASCII: the name travels percent-encoded. */
export const forwardUserHeaders = (user: SessionUser): [string, string][] => [
  ['X-Auth-User-Id', String(user.id)],
  ['X-Auth-User-Name', encodeURIComponent(user.nickName)],
]
