import { Type, type Static } from '@sinclair/typebox'
import {
  DateTime,
  Id,
  NameText,
  OptionalNameSearch,
  PageQuery,
  Page,
  RequiredText,
  withMessage,
} from './common'
import { WEBHOOK_MSG } from '../messages'

/** Webhook endpoints, their deliveries and the pulled change events (DESIGN.md §17). */

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

export const WebhookListBody = Type.Object({
  ...PageQuery,
  /** a part of the endpoint's name or address */
  keyword: OptionalNameSearch(64),
})
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
/** The list, and whether this server lets targets be private (so the form's help can say so). */
export const WebhookPage = Type.Object({
  ...Page(WebhookRow).properties,
  allowPrivate: Type.Boolean({
    description: 'WEBHOOK_ALLOW_PRIVATE：true 时地址可指向本机、内网和链路本地地址',
  }),
})
export type WebhookPage = Static<typeof WebhookPage>

export const WebhookIdQuery = Type.Object({ id: withMessage(Id, WEBHOOK_MSG.idRequired) })
export type WebhookIdQuery = Static<typeof WebhookIdQuery>

export const DeliveryIdQuery = Type.Object({ deliveryId: withMessage(Id, WEBHOOK_MSG.deliveryIdRequired) })
export type DeliveryIdQuery = Static<typeof DeliveryIdQuery>

export const DeliveryListBody = Type.Object({ id: withMessage(Id, WEBHOOK_MSG.idRequired), ...PageQuery })
export type DeliveryListBody = Static<typeof DeliveryListBody>

/** `withheld`: the endpoint's owner may not read the event (DESIGN.md §13), so it was not sent. */
export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed', 'withheld'] as const
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
