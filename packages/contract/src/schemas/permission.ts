import { Type, type Static } from '@sinclair/typebox'
import { MSG } from '../messages'
import { NAME_LABELS } from '../names'
import { DateTime, Grantable, MESSAGE_KEYWORD, NameText, OptionalText } from './common'

/** Methods a back-end pattern may name; `*` (or `ALL`) matches every method. */
export const URL_PATTERN_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', '*', 'ALL'] as const

/** One back-end call a permission grants: method + uri pattern without the /api prefix. */
export const UrlPatternInfo = Type.Object({
  method: Type.String({ minLength: 1, maxLength: 10, description: 'GET, POST, PUT, PATCH, DELETE or *' }),
  uri: Type.String({ minLength: 1, maxLength: 255, description: 'path without /api; may end in /**' }),
})
export type UrlPatternInfo = Static<typeof UrlPatternInfo>

const codeText = Type.String({ maxLength: 64 })

/** The permission form (SPEC.md §5, §7). `level` is accepted but recomputed from the parent. */
const AuthFields = {
  chName: NameText(MSG.chNameRequired, NAME_LABELS.chName),
  enName: NameText(MSG.enNameRequired, NAME_LABELS.enName),
  description: OptionalText(500),
  frontEndAccessList: Type.Optional(
    Type.Union(
      [
        Type.String({ maxLength: 4000 }),
        Type.Array(Type.String({ maxLength: 255 }), { maxItems: 100 }),
        Type.Null(),
      ],
      {
        description: 'comma-joined front-end path patterns',
      },
    ),
  ),
  level: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
  parentCode: Type.Optional(Type.Union([codeText, Type.Null()])),
  seq: Type.Optional(
    Type.Union(
      [Type.Integer({ minimum: 0, maximum: 1000000, [MESSAGE_KEYWORD]: MSG.seqRequired }), Type.Null()],
      {
        description: 'sibling order (default 1)',
      },
    ),
  ),
  status: Type.Integer({
    minimum: 1,
    maximum: 2,
    description: '1 启用, 2 禁用',
    [MESSAGE_KEYWORD]: MSG.statusRequired,
  }),
  type: Type.Integer({
    minimum: 1,
    maximum: 3,
    description: '1 菜单, 2 页面, 3 按钮',
    [MESSAGE_KEYWORD]: MSG.authTypeRequired,
  }),
  uniqueKey: OptionalText(128),
  urlPatternInfos: Type.Array(
    { ...UrlPatternInfo, [MESSAGE_KEYWORD]: MSG.urlPatternsRequired },
    {
      maxItems: 200,
      [MESSAGE_KEYWORD]: MSG.urlPatternsRequired,
    },
  ),
}

export const AuthInsertBody = Type.Object(AuthFields)
export type AuthInsertBody = Static<typeof AuthInsertBody>

export const AuthUpdateBody = Type.Object({
  code: Type.String({ minLength: 1, maxLength: 64 }),
  ...AuthFields,
})
export type AuthUpdateBody = Static<typeof AuthUpdateBody>

export const AuthCodeQuery = Type.Object({ authCode: Type.String({ minLength: 1, maxLength: 64 }) })

const nodeFields = {
  code: Type.String(),
  parentCode: Type.Union([Type.String(), Type.Null()]),
  level: Type.Integer(),
  chName: Type.String(),
  enName: Type.String(),
  description: Type.Union([Type.String(), Type.Null()]),
  seq: Type.Integer(),
  uniqueKey: Type.Union([Type.String(), Type.Null()]),
  type: Type.Integer({ description: '1 菜单, 2 页面, 3 按钮' }),
  status: Type.Integer({ description: '1 启用, 2 禁用' }),
  frontEndAccessList: Type.String({ description: 'comma-joined front-end path patterns' }),
  frontEndAccesss: Type.Array(Type.Object({ frontEndAccess: Type.String() })),
  urlPatternInfos: Type.Array(UrlPatternInfo),
  isLeaf: Type.Boolean(),
  createTime: DateTime,
  updateTime: DateTime,
}

/** One permission node (GET /auth/detail). */
export const AuthNode = Type.Object(nodeFields)
export type AuthNode = Static<typeof AuthNode>

/**
 * A node of POST /auth/tree (children ordered by seq, then code), marked with whether the caller
 * may grant it in a role (the role forms disable what they may not).
 */
export const AuthTreeNode = Type.Object({
  ...nodeFields,
  ...Grantable,
  children: Type.Array(Type.Unknown(), { description: 'child nodes, same shape' }),
})
export interface AuthTreeNode extends AuthNode {
  grantable?: boolean
  denyReason?: string | null
  children: AuthTreeNode[]
}

export const BackEndCatalogue = Type.Object({
  urlMap: Type.Record(
    Type.String({ description: 'HTTP method' }),
    Type.Record(
      Type.String({ description: 'group name' }),
      Type.Array(Type.Object({ apiOperationValue: Type.String(), urls: Type.Array(Type.String()) })),
    ),
  ),
})
