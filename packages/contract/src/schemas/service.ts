import { Type, type Static } from '@sinclair/typebox'
import { MSG } from '../messages'
import { NAME_LABELS } from '../names'
import {
  DateTime,
  Id,
  NameText,
  OptionalNameSearch,
  Page,
  PageQuery,
  RequiredText,
  withMessage,
} from './common'

/**
 * DESIGN.md §10a: a service owns the permission subtree under its root node, and its gateway asks
 * `/api/authz/forward/<key>`. The built-in `ams` is this server's own API and owns every node that
 * lies in no other service's subtree (its `rootCode` is null).
 */

export const ServiceListBody = Type.Object({
  ...PageQuery,
  /** a part of the key or the name */
  keyword: OptionalNameSearch(64),
})
export type ServiceListBody = Static<typeof ServiceListBody>

export const ServiceRow = Type.Object({
  id: Type.Integer(),
  key: Type.String(),
  name: Type.String(),
  rootCode: Type.Union([Type.String(), Type.Null()]),
  /** the root node's name, for the list (null for ams) */
  rootName: Type.Union([Type.String(), Type.Null()]),
  builtIn: Type.Boolean(),
  createTime: DateTime,
  updateTime: DateTime,
})
export type ServiceRow = Static<typeof ServiceRow>
export const ServicePage = Page(ServiceRow)

/** The key's form (lower-case letters, digits, '-') is checked by `checkServiceKey`, with its own message. */
const ServiceKeyText = RequiredText(MSG.serviceKeyRequired, 64)
const ServiceName = NameText(MSG.serviceNameRequired, NAME_LABELS.serviceName)

export const ServiceInsertBody = Type.Object({
  key: ServiceKeyText,
  name: ServiceName,
  /** an existing top-level node no other service owns; without it a new top-level node is made */
  rootCode: Type.Optional(Type.Union([Type.Null(), Type.String({ maxLength: 64 })])),
})
export type ServiceInsertBody = Static<typeof ServiceInsertBody>

export const ServiceUpdateBody = Type.Object({ id: Id, name: ServiceName })
export type ServiceUpdateBody = Static<typeof ServiceUpdateBody>

export const ServiceIdQuery = Type.Object({ id: withMessage(Id, '请选择服务') })
export type ServiceIdQuery = Static<typeof ServiceIdQuery>

/** The `service` of an analysis call: a key; absent means ams. */
export const ServiceParam = Type.Optional(Type.String({ maxLength: 64, description: '服务标识，默认 ams' }))
