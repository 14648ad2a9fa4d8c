import { Type, type Static } from '@sinclair/typebox'
import { MSG } from '../messages'
import { NAME_LABELS } from '../names'
import {
  DateTime,
  Id,
  IdList,
  NameText,
  OperatorVo,
  OptionalNameSearch,
  PageQuery,
  withMessage,
} from './common'

/** Job title types: 1 普通职位 is the only one the product knows. */
export const STATION_TYPES = { ordinary: 1 } as const

export const StationType = withMessage(
  Type.Integer({ minimum: 1, maximum: 1, description: '1 普通职位' }),
  MSG.stationTypeRequired,
)

const NameFilter = OptionalNameSearch()

export const StationSimpleBody = Type.Object({
  stationName: NameFilter,
  /** with orgId: the job titles NOT yet linked to that department (the "link job titles" popover) */
  orgId: Type.Optional(Type.Union([Type.Null(), Id])),
  /** with orgId and linked=true: the job titles that ARE linked to that department instead */
  linked: Type.Optional(Type.Boolean()),
})
export type StationSimpleBody = Static<typeof StationSimpleBody>

export const StationSimple = Type.Object({
  id: Type.Integer(),
  stationName: Type.String(),
  type: Type.Integer(),
})
export type StationSimple = Static<typeof StationSimple>

export const StationListBody = Type.Object({
  ...PageQuery,
  stationName: NameFilter,
  type: Type.Optional(Type.Union([Type.Null(), Type.Integer({ minimum: 1, maximum: 32767 })])),
})
export type StationListBody = Static<typeof StationListBody>

export const StationRow = Type.Object({
  id: Type.Integer(),
  stationName: Type.String(),
  type: Type.Integer(),
  createTime: DateTime,
  updateTime: DateTime,
  createUserVo: OperatorVo,
  updateUserVo: OperatorVo,
})

export const StationPositionVo = Type.Object({
  positionId: Type.Integer(),
  orgId: Type.Integer(),
  stationId: Type.Integer(),
})

export const StationDetail = Type.Object({
  id: Type.Integer(),
  stationName: Type.String(),
  type: Type.Integer(),
  createTime: DateTime,
  updateTime: DateTime,
  createUserVo: OperatorVo,
  updateUserVo: OperatorVo,
  orgIds: Type.Array(Type.Integer()),
  stationPositionVOS: Type.Array(StationPositionVo),
})

export const StationIdQuery = Type.Object({ stationId: withMessage(Id, '请选择职位') })
export type StationIdQuery = Static<typeof StationIdQuery>

export const StationInsertBody = Type.Object({
  stationName: NameText(MSG.stationNameRequired, NAME_LABELS.stationName),
  type: StationType,
  /** departments to create positions for: [1,2] or "1,2" */
  orgIds: Type.Optional(Type.Union([Type.Null(), IdList])),
})
export type StationInsertBody = Static<typeof StationInsertBody>

export const StationUpdateBody = Type.Object({
  id: Id,
  stationName: NameText(MSG.stationNameRequired, NAME_LABELS.stationName),
  type: StationType,
  /** when present (even empty), the job title's positions are kept in step with it */
  orgIds: Type.Optional(Type.Union([Type.Null(), IdList])),
})
export type StationUpdateBody = Static<typeof StationUpdateBody>
