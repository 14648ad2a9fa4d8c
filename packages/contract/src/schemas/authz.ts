import { Type, type Static } from '@sinclair/typebox'
import { MSG } from '../messages'
import { Id, MAX_PAGE_NUM, Page, withMessage } from './common'
import { ServiceParam } from './service'

/**
 * DESIGN.md §10: serving other systems. A "call" is an HTTP method and a path as the other service
 * sees it (its own paths, without this server's /api prefix for this server's own routes).
 */

/** At most this many checks in one check-batch call. */
export const MAX_BATCH_CHECKS = 1000
export const batchTooLarge = `一次最多检查 ${MAX_BATCH_CHECKS} 项`

export const CallMethod = withMessage(
  Type.String({ minLength: 1, maxLength: 16, pattern: '^[A-Za-z*]+$', description: 'HTTP 方法' }),
  MSG.callMethodInvalid,
)
export const CallPath = withMessage(
  Type.String({ minLength: 1, maxLength: 2048, pattern: '^/', description: '路径，以 / 开头，不含查询串' }),
  MSG.callPathSlash,
)

const Call = { method: CallMethod, path: CallPath }

/**
 * `service`: whose namespace the call is in (DESIGN.md §10a), default `ams` (this server's own API);
 * an unknown key is refused with 400. Without `userId` a check is about the caller and needs only a
 * session; another user's needs a permission matching the check call itself (node `authz:check`).
 */
/** `withScope: true` asks for the data scope of each allowed call too (DESIGN.md §13). */
const WithScope = Type.Optional(
  withMessage(Type.Boolean({ description: '同时返回数据权限范围' }), '参数 withScope 应为布尔值'),
)

/**
 * The data scope of an allowed call (DESIGN.md §13): `all`, or the user's own records (`self`)
 * and/or those of the departments in `orgIds` (sorted, subtrees resolved). contract data-scope.ts.
 */
export const DataScopeResult = Type.Object({
  all: Type.Boolean(),
  self: Type.Boolean(),
  orgIds: Type.Array(Type.Integer()),
})

export const AuthzCheckBody = Type.Object({
  ...Call,
  userId: Type.Optional(Id),
  service: ServiceParam,
  withScope: WithScope,
})
export type AuthzCheckBody = Static<typeof AuthzCheckBody>
/** `scope` only with `withScope: true` and only when allowed. */
export const AuthzCheckResult = Type.Object({
  allowed: Type.Boolean(),
  userId: Type.Integer(),
  scope: Type.Optional(DataScopeResult),
})
export type AuthzCheckResult = Static<typeof AuthzCheckResult>

export const AuthzCheckBatchBody = Type.Object({
  userId: Type.Optional(Id),
  service: ServiceParam,
  withScope: WithScope,
  // The server refuses more than MAX_BATCH_CHECKS with `batchTooLarge` before validation.
  checks: Type.Array(Type.Object(Call), { maxItems: MAX_BATCH_CHECKS }),
})
export type AuthzCheckBatchBody = Static<typeof AuthzCheckBatchBody>
/**
 * `results` in the order asked. With `withScope: true`, `scopes` in the same order: each allowed
 * call's scope, null for a refused one (a refused call has no scope).
 */
export const AuthzCheckBatchResult = Type.Object({
  results: Type.Array(Type.Boolean()),
  scopes: Type.Optional(Type.Array(Type.Union([DataScopeResult, Type.Null()]))),
})

export const VIA_KINDS = ['direct', 'group', 'position'] as const
export type ViaKind = (typeof VIA_KINDS)[number]

/**
 * Where a role comes from: `direct` names the role itself (linked to the user directly), `group`
 * the user group and `position` the position (`部门全称-职位名`) that carries it.
 */
export const AuthzVia = Type.Object({
  kind: Type.Union(VIA_KINDS.map((k) => Type.Literal(k))),
  id: Type.Integer(),
  name: Type.String(),
})
export type AuthzVia = Static<typeof AuthzVia>

const RoleRef = Type.Object({ id: Type.Integer(), roleName: Type.String(), type: Type.Integer() })

export const AuthzExplainBody = Type.Object({ ...Call, userId: Id, service: ServiceParam })
export type AuthzExplainBody = Static<typeof AuthzExplainBody>

/** A super-admin role's grant has `node: null` and the pseudo pattern `{ method: '*', uri: '/**' }`. */
export const AuthzGrant = Type.Object({
  via: AuthzVia,
  role: RoleRef,
  node: Type.Union([Type.Object({ code: Type.String(), chName: Type.String() }), Type.Null()]),
  pattern: Type.Object({ method: Type.String(), uri: Type.String() }),
})
export type AuthzGrant = Static<typeof AuthzGrant>
/** One allowing role's part of the call's scope: its data scope and what it reaches for this user. */
export const AuthzRoleScope = Type.Object({
  role: RoleRef,
  dataScope: Type.Integer({ description: '1 全部数据, 2 自定义部门, 3 本部门, 4 本部门及以下, 5 仅本人' }),
  scope: DataScopeResult,
  /** the part in words, as 权限分析 shows it: 全部数据, 研发中心（含下级）、本人, 无 */
  scopeText: Type.String(),
})
export type AuthzRoleScope = Static<typeof AuthzRoleScope>
/**
 * `scope`: the call's data scope (the union of `roleScopes`; all for a super admin), null when the
 * call is refused. `roleScopes`: each allowing role's part (none for a super admin, whose scope is all).
 */
export const AuthzExplainResult = Type.Object({
  allowed: Type.Boolean(),
  superAdmin: Type.Boolean(),
  grants: Type.Array(AuthzGrant),
  scope: Type.Union([DataScopeResult, Type.Null()]),
  /** the scope in words (研发中心（含下级）), null when the call is refused */
  scopeText: Type.Union([Type.String(), Type.Null()]),
  roleScopes: Type.Array(AuthzRoleScope),
})
export type AuthzExplainResult = Static<typeof AuthzExplainResult>

export const AuthzEffectiveQuery = Type.Object({ userId: Id, service: ServiceParam })
export const AuthzEffectiveRole = Type.Object({ ...RoleRef.properties, via: Type.Array(AuthzVia) })
export type AuthzEffectiveRole = Static<typeof AuthzEffectiveRole>
export const AuthzEffectiveResult = Type.Object({
  superAdmin: Type.Boolean(),
  roles: Type.Array(AuthzEffectiveRole),
  nodes: Type.Array(
    Type.Object({ code: Type.String(), chName: Type.String(), roleIds: Type.Array(Type.Integer()) }),
  ),
})
export type AuthzEffectiveResult = Static<typeof AuthzEffectiveResult>

export const AuthzWhoCanBody = Type.Object({
  ...Call,
  service: ServiceParam,
  pageNum: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_NUM, default: 1 })),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 10 })),
})
export type AuthzWhoCanBody = Static<typeof AuthzWhoCanBody>
export const AuthzWhoCanRow = Type.Object({
  userId: Type.Integer(),
  nickName: Type.String(),
  superAdmin: Type.Boolean(),
  via: Type.Array(AuthzVia),
})
export type AuthzWhoCanRow = Static<typeof AuthzWhoCanRow>
export const AuthzWhoCanPage = Page(AuthzWhoCanRow)

export const AuthzRoleImpactBody = Type.Object({
  roleId: Id,
  authCodes: Type.Array(Type.String({ maxLength: 64 }), { maxItems: 10_000 }),
})
export type AuthzRoleImpactBody = Static<typeof AuthzRoleImpactBody>
const NodeRef = Type.Object({ code: Type.String(), chName: Type.String() })
export const AuthzRoleImpactResult = Type.Object({
  users: Type.Integer(),
  gained: Type.Array(NodeRef),
  lost: Type.Array(NodeRef),
  /** disabled nodes (or under a disabled ancestor) in the new set: power that comes alive once enabled */
  dormant: Type.Array(NodeRef),
})
export type AuthzRoleImpactResult = Static<typeof AuthzRoleImpactResult>
