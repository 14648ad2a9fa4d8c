import { Type, type Static } from '@sinclair/typebox'
import { DateTime, Id, NameText, PageQuery, Page, RequiredText, withMessage } from './common'

/** Webhook endpoints, their deliveries and the pulled change events (DESIGN.md §17). */

export const WEBHOOK_MSG = {
  nameRequired: '请输入 Webhook 名称',
  urlRequired: '请输入 Webhook 地址',
  urlInvalid: 'Webhook 地址不正确，应为 http:// 或 https:// 开头的完整网址',
  urlPrivate: 'Webhook 地址不能指向本机、内网、链路本地或云元数据地址',
  eventTypesRequired: '请至少选择一种事件类型',
  eventTypeUnknown: (type: string) => `未知的事件类型：${type}`,
  enabledRequired: '请选择是否启用',
  idRequired: '请选择 Webhook',
  deliveryIdRequired: '请选择投递记录',
  notFound: 'Webhook 不存在',
  deliveryNotFound: '投递记录不存在',
  disabledFailing: '连续 3 天投递失败，已自动停用',
  rotated: '密钥已轮换，旧密钥在 24 小时内仍然有效',
  afterInvalid: 'after 应为事件编号（非负整数）',
  limitInvalid: 'limit 应为 1 到 1000 之间的整数',
} as const

/** The name a person gives an endpoint (checked like every name). */
const WebhookName = NameText(WEBHOOK_MSG.nameRequired, 'Webhook 名称')
/** The address: its form and where it points are checked by the server with their own messages. */
const WebhookUrl = RequiredText(WEBHOOK_MSG.urlRequired, 2048)
const EventTypes = withMessage(
  Type.Array(Type.String({ maxLength: 64 }), { minItems: 1, maxItems: 100 }),
  WEBHOOK_MSG.eventTypesRequired,
)
const Enabled = withMessage(Type.Boolean(), WEBHOOK_MSG.enabledRequired)

export const WebhookInsertBody = Type.Object({
  name: WebhookName,
  url: WebhookUrl,
  eventTypes: EventTypes,
  enabled: Type.Optional(Enabled),
})
export type WebhookInsertBody = Static<typeof WebhookInsertBody>

/** The only answer that ever holds the secret. */
export const WebhookSecret = Type.Object({ id: Type.Integer(), secret: Type.String() })
export type WebhookSecret = Static<typeof WebhookSecret>

export const WebhookUpdateBody = Type.Object({
  id: withMessage(Id, WEBHOOK_MSG.idRequired),
  name: WebhookName,
  url: WebhookUrl,
  eventTypes: EventTypes,
  enabled: Enabled,
})
export type WebhookUpdateBody = Static<typeof WebhookUpdateBody>

export const WebhookListBody = Type.Object({ ...PageQuery })
export type WebhookListBody = Static<typeof WebhookListBody>

export const WebhookRow = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  url: Type.String(),
  eventTypes: Type.Array(Type.String()),
  enabled: Type.Boolean(),
  /** when deliveries began failing without a success since (null: not failing) */
  failingSince: Type.Union([DateTime, Type.Null()]),
  /** why the server disabled it (null: it did not) */
  disabledReason: Type.Union([Type.String(), Type.Null()]),
  /** when the secret was last rotated (the previous one signs too for a day after) */
  secretRotatedAt: Type.Union([DateTime, Type.Null()]),
  createTime: DateTime,
  updateTime: DateTime,
})
export type WebhookRow = Static<typeof WebhookRow>
export const WebhookPage = Page(WebhookRow)

export const WebhookIdQuery = Type.Object({ id: withMessage(Id, WEBHOOK_MSG.idRequired) })
export type WebhookIdQuery = Static<typeof WebhookIdQuery>

export const DeliveryIdQuery = Type.Object({ deliveryId: withMessage(Id, WEBHOOK_MSG.deliveryIdRequired) })
export type DeliveryIdQuery = Static<typeof DeliveryIdQuery>

export const DeliveryListBody = Type.Object({ id: withMessage(Id, WEBHOOK_MSG.idRequired), ...PageQuery })
export type DeliveryListBody = Static<typeof DeliveryListBody>

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number]

export const DeliveryRow = Type.Object({
  id: Type.Integer(),
  /** the Standard Webhooks message id, the same on every attempt: consumers drop repeats by it */
  webhookId: Type.String(),
  eventId: Type.Union([Type.Integer(), Type.Null()]),
  eventType: Type.String(),
  status: Type.Union(DELIVERY_STATUSES.map((s) => Type.Literal(s))),
  attempts: Type.Integer(),
  nextAttemptAt: Type.Union([DateTime, Type.Null()]),
  lastStatusCode: Type.Union([Type.Integer(), Type.Null()]),
  lastDurationMs: Type.Union([Type.Integer(), Type.Null()]),
  /** the first 1 KB of the last answer, or what went wrong */
  lastResponse: Type.Union([Type.String(), Type.Null()]),
  lastAttemptAt: Type.Union([DateTime, Type.Null()]),
  createTime: DateTime,
})
export type DeliveryRow = Static<typeof DeliveryRow>
export const DeliveryPage = Page(DeliveryRow)

export const EVENTS_DEFAULT_LIMIT = 100
export const EVENTS_MAX_LIMIT = 1000

export const EventsQuery = Type.Object({
  /** the last event id the consumer has seen: the answer starts after it */
  after: Type.Optional(withMessage(Type.Integer({ minimum: 0 }), WEBHOOK_MSG.afterInvalid)),
  limit: Type.Optional(
    withMessage(Type.Integer({ minimum: 1, maximum: EVENTS_MAX_LIMIT }), WEBHOOK_MSG.limitInvalid),
  ),
  /** comma-joined event types; absent: every type */
  types: Type.Optional(Type.String({ maxLength: 2000 })),
})
export type EventsQuery = Static<typeof EventsQuery>

export const ChangeEvent = Type.Object({
  id: Type.Integer(),
  type: Type.String(),
  payload: Type.Record(Type.String(), Type.Unknown()),
  createdAt: DateTime,
})
export type ChangeEvent = Static<typeof ChangeEvent>

export const EventsPage = Type.Object({
  list: Type.Array(ChangeEvent),
  /** pass as `after` next time (the last id of this page, or `after` itself when the page is empty) */
  next: Type.Integer(),
})
