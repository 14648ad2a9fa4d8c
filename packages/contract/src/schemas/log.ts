import { Type, type Static } from '@sinclair/typebox'
import { LOGIN_RESULTS, OPERATION_RESULTS } from '../log-results'
import { Id, MAX_PAGE_NUM, OptionalNameSearch, Page } from './common'

/** DESIGN.md §9: the operation log, the login log and the online sessions. */

const Paging = {
  pageNum: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_NUM, default: 1 })),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 10 })),
}
const Filter = (maxLength = 64) => Type.Optional(Type.Union([Type.Null(), Type.String({ maxLength })]))
/** A time as ISO 8601 text (`2026-11-22T08:00:00Z`, or a date and time the console sends). */
const TimeFilter = Type.Optional(
  Type.Union([Type.Null(), Type.String({ maxLength: 40, description: 'ISO 8601 时间' })]),
)

export const OperationLogFilters = {
  /** matched from the start, on the normalised name (names.ts) */
  operatorName: OptionalNameSearch(),
  /** exactly one operator: two with look-alike names are told apart by id */
  operatorId: Type.Optional(Type.Union([Type.Null(), Id])),
  resourceType: Filter(),
  summary: Filter(128),
  result: Type.Optional(
    Type.Union([Type.Null(), Type.Literal(''), ...OPERATION_RESULTS.map((r) => Type.Literal(r))]),
  ),
  from: TimeFilter,
  to: TimeFilter,
}

export const OperationLogListBody = Type.Object({ ...Paging, ...OperationLogFilters })
export type OperationLogListBody = Static<typeof OperationLogListBody>

/** GET /log/operation/export takes the same filters as query parameters. */
export const OperationLogExportQuery = Type.Object(OperationLogFilters)
export type OperationLogExportQuery = Static<typeof OperationLogExportQuery>

const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()])

/** A log time: ISO 8601 in the server's zone, with its offset (`2026-11-26T14:03:05.123+08:00`). */
const LogTime = Type.String({ format: 'date-time', description: '服务器时区的时间，带时差' })

export const OperationLogRow = Type.Object({
  id: Type.Integer(),
  time: LogTime,
  operatorId: Type.Union([Type.Integer(), Type.Null()]),
  operatorName: Nullable(Type.String()),
  ip: Nullable(Type.String()),
  userAgent: Nullable(Type.String()),
  method: Type.String(),
  path: Type.String(),
  summary: Nullable(Type.String()),
  resourceType: Nullable(Type.String()),
  resourceId: Nullable(Type.String()),
  /** the record as it was then: its type and name (`用户 张三`), `用户 #12` when its name is unknown */
  resourceName: Nullable(Type.String({ description: '资源：类型与当时的名称' })),
  result: Type.String(),
  status: Type.Integer(),
  msg: Nullable(Type.String()),
})
export type OperationLogRow = Static<typeof OperationLogRow>

/** A change: `{ field, before, after }`, or `{ field: 'links', added, removed }`; `target` names the record. */
export const OperationLogDetail = Type.Object({
  ...OperationLogRow.properties,
  changes: Type.Array(Type.Record(Type.String(), Type.Unknown())),
})
export type OperationLogDetail = Static<typeof OperationLogDetail>

/**
 * A log page: past 10,000 matching rows `total` is the planner's estimate and `totalIsEstimate` says so.
 * `timeZone` is the server's zone, the one its times are written in: the console's time-range filter
 * picks times in it too.
 */
const LogPage = <T extends Parameters<typeof Page>[0]>(row: T) =>
  Type.Object({
    ...Page(row).properties,
    totalIsEstimate: Type.Boolean(),
    timeZone: Type.String({ description: '服务器时区（IANA 名称）' }),
  })

export const OperationLogPage = LogPage(OperationLogRow)
export const LogIdQuery = Type.Object({ id: Id })

export const LoginLogListBody = Type.Object({
  ...Paging,
  nickName: OptionalNameSearch(),
  result: Type.Optional(
    Type.Union([Type.Null(), Type.Literal(''), ...LOGIN_RESULTS.map((r) => Type.Literal(r))]),
  ),
  from: TimeFilter,
  to: TimeFilter,
})
export type LoginLogListBody = Static<typeof LoginLogListBody>

export const LoginLogRow = Type.Object({
  id: Type.Integer(),
  time: LogTime,
  nickName: Nullable(Type.String()),
  userId: Type.Union([Type.Integer(), Type.Null()]),
  ip: Nullable(Type.String()),
  userAgent: Nullable(Type.String()),
  result: Type.String(),
  msg: Nullable(Type.String()),
})
export type LoginLogRow = Static<typeof LoginLogRow>
export const LoginLogPage = LogPage(LoginLogRow)

export const OnlineSessionListBody = Type.Object({ ...Paging, nickName: OptionalNameSearch() })
export type OnlineSessionListBody = Static<typeof OnlineSessionListBody>

export const OnlineSessionRow = Type.Object({
  id: Type.Integer({ description: '会话 id（不是令牌）' }),
  userId: Type.Integer(),
  nickName: Type.String(),
  ip: Nullable(Type.String()),
  userAgent: Nullable(Type.String()),
  loginTime: Type.String({ format: 'date-time' }),
  lastSeenTime: Type.String({ format: 'date-time' }),
  expiresAt: Type.String({ format: 'date-time' }),
  current: Type.Boolean({ description: '是否为调用者自己的这个会话' }),
})
export type OnlineSessionRow = Static<typeof OnlineSessionRow>
export const OnlineSessionPage = Page(OnlineSessionRow)
export const SessionIdQuery = Type.Object({ id: Id })
