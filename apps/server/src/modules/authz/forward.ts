import type { IncomingHttpHeaders } from 'node:http'
import {
  FORWARD_METHODS,
  routes,
  AMS_SERVICE_KEY,
  API_PREFIX,
  AUTH_HEADER,
  DATA_SCOPE_HEADER,
  canonicalPath,
  isPathRefusal,
  MSG,
  TOKEN_STORAGE_KEY,
  unknownService,
} from '@amg/contract'
import { AppError, badRequest, forbidden, notFound, unauthorized } from '../../lib/errors'
import type { Authorizer } from '../../auth/authorizer'
import type { SessionCache, SessionUser } from '../../cache/session-cache'
import { restrictionRefusal } from '../../auth/restriction'
import { hashToken } from '../../lib/tokens'
import { normalizeMethod } from './service'

/** Where gateways ask (DESIGN.md §10), and the methods it answers: a gateway asks with the original one. */
export const FORWARD_URL = routes.authz.forward.path
export const FORWARD_PATH = `${API_PREFIX}${FORWARD_URL}`
export { FORWARD_METHODS }

/**
 * The service a forward-auth path names (DESIGN.md §10a): `/api/authz/forward/<key>` asks about that
 * service's namespace, the bare `/api/authz/forward` about ams (older configurations). Undefined for
 * any other path. The key is taken as written: one that no service has is refused, never guessed at.
 */
export function forwardService(path: string | undefined): string | undefined {
  if (path === undefined || !path.startsWith(FORWARD_PATH)) return undefined
  if (path.length === FORWARD_PATH.length) return AMS_SERVICE_KEY
  if (path.charCodeAt(FORWARD_PATH.length) !== 0x2f) return undefined
  const key = path.slice(FORWARD_PATH.length + 1)
  return key === '' || key.includes('/') ? undefined : key
}

export const FORWARD_MISSING_CALL =
  '缺少原始请求的方法或路径（X-Original-Method/X-Original-URI 或 X-Forwarded-Method/X-Forwarded-Uri）'
export const FORWARD_TWO_CALLS =
  '原始请求的方法或路径前后不一致（X-Original-* 与 X-Forwarded-* 指向不同的请求）'
export const FORWARD_BAD_METHOD = '原始请求的方法不正确'
export const FORWARD_URI_NOT_ASCII = '原始请求的路径含有未编码的非 ASCII 字符，须按 URL 编码（%XX）'
export const FORWARD_TOKEN_COOKIES =
  'Cookie 中的 Authorization 至多一个，且名称前后只能有空格或制表符（网关无法从转发的请求中去掉其余的）'

const one = (value: string | string[] | undefined): string | undefined => {
  const v = Array.isArray(value) ? value[0] : value
  return v === undefined || v.trim() === '' ? undefined : v.trim()
}

/**
 * Whether the URI's path (before any `?`) is ASCII. Header bytes reach us as Latin-1 and a service
 * may read them as UTF-8, so a raw non-ASCII byte has no reading both sides agree on; clients
 * percent-encode such characters.
 */
function rawPathIsAscii(uri: string): boolean {
  for (let i = 0; i < uri.length; i++) {
    const c = uri.charCodeAt(i)
    if (c === 0x3f /* ? */) return true
    if (c > 0x7e) return false
  }
  return true
}

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

/**
 * The token must stop at the gateway (DESIGN.md §10a): the templates remove `x-auth-token`,
 * `Authorization` and ONE cookie named `Authorization` (any case, spaces or tabs around the name,
 * `;` or `,` before it) before passing a call on. A regular expression in nginx's `map` removes one
 * match only, and a name padded with other whitespace (which `cookieValue` trims) is not removed at
 * all: such a Cookie header is refused here, so that no call carrying it is let through.
 */
const ANY_TOKEN_COOKIE = /(?:^|[;,])\s*authorization\s*=/i
const TWO_TOKEN_COOKIES = /(?:^|[;,])\s*authorization\s*=[\s\S]*?[;,]\s*authorization\s*=/i
const STRIPPED_TOKEN_COOKIE = /(?:^|[;,])[ \t]*authorization[ \t]*=/i

function refuseUnstrippableTokenCookies(cookie: string | undefined) {
  if (!cookie || !/authorization/i.test(cookie)) return
  if (
    TWO_TOKEN_COOKIES.test(cookie) ||
    (ANY_TOKEN_COOKIE.test(cookie) && !STRIPPED_TOKEN_COOKIE.test(cookie))
  )
    throw badRequest(FORWARD_TOKEN_COOKIES)
}

/** The end user's token: `x-auth-token`, `Authorization: Bearer …`, or the cookie `Authorization`. */
export function forwardedToken(headers: IncomingHttpHeaders): string | undefined {
  // untrimmed: a leading no-break space is whitespace to trim() but not to the gateways' expressions
  refuseUnstrippableTokenCookies(headers.cookie)
  const own = one(headers[AUTH_HEADER])
  if (own) return own
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(one(headers.authorization) ?? '')
  if (bearer) return bearer[1]
  const cookie = cookieValue(one(headers.cookie), TOKEN_STORAGE_KEY)
  return cookie?.replace(/^Bearer\s+/i, '') || undefined
}

/** Whether the gateway's request names either half of a call in this pair of headers. */
function named(pair: { method: string | undefined; uri: string | undefined }): boolean {
  return pair.method !== undefined || pair.uri !== undefined
}

/**
 * The call the gateway is asking about: nginx's `X-Original-Method` + `X-Original-URI`, or
 * Traefik's / Caddy's `X-Forwarded-Method` + `X-Forwarded-Uri`. Each gateway sets its own pair but
 * passes the client's other headers on, so a client could add the other pair naming a call it may
 * make: when both pairs are present they must name the same call, or the answer is 403 (a gateway
 * turns any other refusal into a 500). The path is
 * taken as the other service sees it — an `/api/` prefix is kept — read by `canonicalPath` (the
 * query string dropped, percent-decoded once), or refused with 400 when the service could read it
 * as another path than the one decided on (`/public/..%2fadmin`).
 */
export function forwardedCall(headers: IncomingHttpHeaders): { method: string; path: string } {
  const original = { method: one(headers['x-original-method']), uri: one(headers['x-original-uri']) }
  const forwarded = { method: one(headers['x-forwarded-method']), uri: one(headers['x-forwarded-uri']) }
  if (
    named(original) &&
    named(forwarded) &&
    (original.method !== forwarded.method || original.uri !== forwarded.uri)
  )
    throw new AppError(403, FORWARD_TWO_CALLS)
  const { method, uri } = named(original) ? original : forwarded
  if (!method || !uri) throw badRequest(FORWARD_MISSING_CALL)
  if (!/^[A-Za-z]{1,16}$/.test(method)) throw badRequest(FORWARD_BAD_METHOD)
  if (!rawPathIsAscii(uri)) throw badRequest(FORWARD_URI_NOT_ASCII)
  const path = canonicalPath(uri)
  if (isPathRefusal(path)) throw badRequest(path.refused)
  return { method: normalizeMethod(method), path }
}

/** An allowed forwarded call: the end user, and the call's data scope as X-Auth-Data-Scope says it. */
export interface ForwardAnswer {
  user: SessionUser
  scopeHeader: string
}

/**
 * The one answer to a gateway's question: the end user whose session the forwarded headers carry,
 * when that user may make the forwarded call in `service`'s namespace, with the call's data scope
 * (DESIGN.md §13); otherwise the AppError to answer (401 without a valid session, 404 for a service
 * that does not exist — a gateway fails closed on it — 400 for a missing or malformed call, 403 when
 * no permission of that service matches). From memory once warm: the decision and the scope come
 * from one look at the user's cached access.
 */
export async function forwardedUser(
  sessions: Pick<SessionCache, 'find'>,
  authz: Pick<Authorizer, 'scopeHeaderOf' | 'hasService' | 'used'>,
  headers: IncomingHttpHeaders,
  service: string = AMS_SERVICE_KEY,
): Promise<ForwardAnswer> {
  const token = forwardedToken(headers)
  const user = token ? await sessions.find(token) : null
  if (!user) throw unauthorized(MSG.unauthorized)
  // a restricted session opens no other system either (DESIGN.md §14)
  if (user.restricted) throw restrictionRefusal(user.restricted)
  if (!(await authz.hasService(service))) throw notFound(unknownService(service))
  const call = forwardedCall(headers)
  const scopeHeader = await authz.scopeHeaderOf(user.id, call.method, call.path, service)
  if (scopeHeader === null) throw forbidden(MSG.forbidden)
  authz.used(user.id, call.method, call.path, service)
  return { user, scopeHeader }
}

/**
 * `forwardedUser`'s 200 answered at once from what memory holds (the session, the service and the
 * user's access), without a promise; undefined whenever anything else may be the answer (a lookup, a
 * refusal of any kind), which `forwardedUser` then gives. Its errors are `forwardedUser`'s too.
 */
export function heldForwardAnswer(
  sessions: Pick<SessionCache, 'held'>,
  authz: Pick<Authorizer, 'scopeHeaderFromMemory' | 'hasServiceFromMemory' | 'used'>,
  headers: IncomingHttpHeaders,
  service: string,
): ForwardAnswer | undefined {
  const token = forwardedToken(headers)
  const user = token ? sessions.held(hashToken(token)) : undefined
  if (!user || user.restricted || authz.hasServiceFromMemory(service) !== true) return undefined
  const call = forwardedCall(headers)
  const scopeHeader = authz.scopeHeaderFromMemory(user.id, call.method, call.path, service)
  if (!scopeHeader) return undefined
  // the end user's own call, decided: the nodes that allowed it count as used (DESIGN.md §21)
  authz.used(user.id, call.method, call.path, service)
  return { user, scopeHeader }
}

/**
 * What a 200 tells the gateway about the user and the call's data scope, as names and values one
 * after the other (as `writeHead` takes them). Header values must be ASCII: the name travels
 * percent-encoded; the scope is ASCII by construction (contract scope-header.ts).
 */
export const forwardUserHeaders = ({ user, scopeHeader }: ForwardAnswer): string[] => [
  'X-Auth-User-Id',
  String(user.id),
  'X-Auth-User-Name',
  encodeURIComponent(user.nickName),
  DATA_SCOPE_HEADER,
  scopeHeader,
]
