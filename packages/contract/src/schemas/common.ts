import { Type, type TSchema, type Static } from '@sinclair/typebox'
import { NAME_KEYWORD, NAME_SEARCH_KEYWORD } from '../names'

/**
 * `x-message` carries the exact Chinese text shown when a field fails its schema; the server's
 * validation error formatter reads it (DESIGN.md §4), and the console shows the same text.
 */
export const MESSAGE_KEYWORD = 'x-message'

export const withMessage = <T extends TSchema>(schema: T, message: string): T =>
  ({ ...schema, [MESSAGE_KEYWORD]: message }) as T

/** A required, non-blank string of bounded length with its own message. */
export const RequiredText = (message: string, maxLength = 64) =>
  Type.String({ minLength: 1, maxLength, pattern: '\\S', [MESSAGE_KEYWORD]: message })

/**
 * A name a person types (names.ts): required, normalised before it is checked, refused with a
 * message naming the field (`label`) when it holds invisible or look-alike characters.
 */
export const NameText = (message: string, label: string, maxLength = 64) =>
  Type.String({ minLength: 1, maxLength, pattern: '\\S', [MESSAGE_KEYWORD]: message, [NAME_KEYWORD]: label })

/** An optional name (a user's realName): null or blank clears it. */
export const OptionalName = (label: string, maxLength = 64) =>
  Type.Optional(Type.Union([Type.Null(), Type.String({ maxLength, [NAME_KEYWORD]: label })]))

/** A search box over names: normalised like a name, never refused (names.ts). */
export const NameSearch = (maxLength = 64) => Type.String({ maxLength, [NAME_SEARCH_KEYWORD]: true })

/** An optional search box over names, null meaning no filter. */
export const OptionalNameSearch = (maxLength = 64) =>
  Type.Optional(Type.Union([Type.Null(), NameSearch(maxLength)]))

export const OptionalText = (maxLength = 255) =>
  Type.Optional(Type.Union([Type.String({ maxLength }), Type.Null()]))

export const Id = Type.Integer({ minimum: 1, maximum: 2147483647 })
export const Status = Type.Union([Type.Literal(1), Type.Literal(2)])

/** The answer envelope every call returns. */
export const Envelope = <T extends TSchema>(data: T) =>
  Type.Object({ code: Type.Integer(), msg: Type.String(), data })

export const NullData = Envelope(Type.Null())

/** Page numbers are bounded so that the offset stays a reasonable number (DESIGN.md §11). */
export const MAX_PAGE_NUM = 1_000_000

export const PageQuery = {
  pageNum: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_NUM, default: 1 })),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 10 })),
}

export const Page = <T extends TSchema>(item: T) =>
  Type.Object({ list: Type.Array(item), total: Type.Integer() })

/** A page of a list that can grow large: past 10,000 matches `total` may be an estimate, and says so. */
export const LargePage = <T extends TSchema>(item: T) =>
  Type.Object({
    ...Page(item).properties,
    totalIsEstimate: Type.Optional(Type.Boolean({ description: 'total 为估算值（超过 10000 条时）' })),
  })

export interface PageResult<T> {
  list: T[]
  total: number
  /** `total` is the server's estimate (large lists past 10,000 matches): shown as 约 N 条 */
  totalIsEstimate?: boolean
}

/** Comma-joined ids as the console sends them ("1,2"), also accepted as a number or an array. */
export const IdList = Type.Union([
  Type.String({ maxLength: 10000 }),
  Type.Integer({ minimum: 1, maximum: 2147483647 }),
  Type.Array(
    Type.Union([Type.Integer({ minimum: 1, maximum: 2147483647 }), Type.String({ maxLength: 20 })]),
    {
      maxItems: 1000,
    },
  ),
])
export type IdListInput = Static<typeof IdList>

/** A time: the server hands Date objects, serialized as ISO 8601 strings. */
export const DateTime = Type.Unsafe<Date | string>({ type: 'string', format: 'date-time' })

export const OperatorVo = Type.Union([
  Type.Object({ id: Type.Integer(), nickName: Type.String() }),
  Type.Null(),
])

/**
 * On the candidates of a link picker (DESIGN.md §6a): whether the caller may grant this one, and
 * when not, the refusal the server would give ('不能授予或管理超出自己权限的内容：…').
 */
export const Grantable = {
  grantable: Type.Optional(Type.Boolean({ description: '调用者能否授予（关联）它' })),
  denyReason: Type.Optional(Type.Union([Type.Null(), Type.String()], { description: '不能授予时的原因' })),
}

/**
 * The body of a write that needs no input: an empty object, so a request must still say it is one
 * (a stray array or string is refused at validation, before anything is written).
 */
export const EmptyBody = Type.Object({})
