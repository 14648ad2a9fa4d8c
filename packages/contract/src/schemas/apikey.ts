import { Type, type Static } from '@sinclair/typebox'
import { MSG } from '../messages'
import { DateTime, Id, OptionalNameSearch, Page, PageQuery, RequiredText, withMessage } from './common'

/**
 * DESIGN.md §16: API keys (`Authorization: Bearer ak_…`) for services that cannot do OAuth. A key acts
 * as its user, with that user's permissions and reach; only its hash is stored, and the key itself is
 * answered once, when it is made.
 */

export const API_KEY_PREFIX = 'ak_'

export const ApiKeyInsertBody = Type.Object({
  userId: withMessage(Id, MSG.apiKeyUserRequired),
  name: RequiredText(MSG.apiKeyNameRequired, 64),
  /** absent or null: the key does not expire */
  expiresAt: Type.Optional(
    // the message on each branch: a refusal names the first branch that failed
    Type.Union([
      Type.Null({ 'x-message': MSG.apiKeyExpiryInvalid }),
      Type.String({ format: 'date-time', 'x-message': MSG.apiKeyExpiryInvalid }),
    ]),
  ),
})
export type ApiKeyInsertBody = Static<typeof ApiKeyInsertBody>

export const ApiKeyCreated = Type.Object({
  id: Type.Integer(),
  /** the key itself: shown this once, never again */
  key: Type.String(),
})
export type ApiKeyCreated = Static<typeof ApiKeyCreated>

export const ApiKeyListBody = Type.Object({
  ...PageQuery,
  /** only this user's keys */
  userId: Type.Optional(Type.Union([Type.Null(), Id])),
  /** a part of the key's name or of its user's nickName */
  keyword: OptionalNameSearch(64),
})
export type ApiKeyListBody = Static<typeof ApiKeyListBody>

export const ApiKeyRow = Type.Object({
  id: Type.Integer(),
  userId: Type.Integer(),
  nickName: Type.String(),
  name: Type.String(),
  /** the key's first characters, to tell keys apart (`ak_Xy12…`) */
  prefix: Type.String(),
  expiresAt: Type.Union([DateTime, Type.Null()]),
  lastUsedTime: Type.Union([DateTime, Type.Null()]),
  createTime: DateTime,
  createUserName: Type.Union([Type.String(), Type.Null()]),
})
export type ApiKeyRow = Static<typeof ApiKeyRow>
export const ApiKeyPage = Page(ApiKeyRow)

export const ApiKeyIdQuery = Type.Object({ id: withMessage(Id, '请选择 API 密钥') })
export type ApiKeyIdQuery = Static<typeof ApiKeyIdQuery>
