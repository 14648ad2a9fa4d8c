import { Type, type Static, type TSchema } from '@sinclair/typebox'
import { MSG } from '../messages'
import { NAME_KEYWORD, NAME_LABELS } from '../names'
import { Id, IdList, MESSAGE_KEYWORD, NameSearch, OptionalNameSearch, withMessage } from './common'

/**
 * Department name (SPEC.md §5): required ('请输入部门名称') and without '-' ("部门名称不能包含'-'").
 * Two rules with two messages: each part of the allOf carries its own text; a missing field
 * reads the outer one.
 */
export const OrgName = Type.Unsafe<string>({
  type: 'string',
  allOf: [
    withMessage(Type.String({ minLength: 1, maxLength: 64, pattern: '\\S' }), MSG.orgNameRequired),
    withMessage(Type.String({ pattern: '^[^-]*$' }), MSG.orgNameNoHyphen),
  ],
  [MESSAGE_KEYWORD]: MSG.orgNameRequired,
  [NAME_KEYWORD]: NAME_LABELS.organizationName,
  description: "部门名称，不能包含'-'",
})

/**
 * In request unions of scalars Null comes first, so ajv's type coercion never turns null into "" or 0;
 * with arrays the array comes first (coercion would unwrap a one-item array while trying null).
 */
const Description = Type.Optional(Type.Union([Type.Null(), Type.String({ maxLength: 500 })]))

export const OrgTreeNode = Type.Recursive(
  (Self) =>
    Type.Object({
      id: Type.Integer(),
      organizationName: Type.String(),
      description: Type.Union([Type.String(), Type.Null()]),
      parent: Type.Union([Type.Integer(), Type.Null()]),
      organizationCompleteName: Type.String({ description: "从根部门起的名称路径，以 '-' 连接" }),
      childCount: Type.Integer(),
      inScope: Type.Optional(
        Type.Boolean({ description: 'false：不在调用者数据权限范围内，仅作为上级显示（灰色，不可选）' }),
      ),
      children: Type.Array(Self),
    }),
  { $id: 'OrgTreeNode' },
)
export interface OrgTreeNode {
  id: number
  organizationName: string
  description: string | null
  parent: number | null
  organizationCompleteName: string
  childCount: number
  /** false: outside the caller's data scope, shown only as a greyed ancestor (DESIGN.md §13) */
  inScope?: boolean
  children: OrgTreeNode[]
}

/** The console's tree widgets take a list of roots; normally exactly one (the seeded root). */
export const OrgTree: TSchema = Type.Array(OrgTreeNode)

/**
 * GET /org/tree's parts (decisions.md "The department tree by levels"): with none of these the whole
 * tree (the pickers); `roots=1` the root level, `parentId` one department's children, `keyword` the
 * departments whose name contains it with their paths, `pathTo` one department with its path (the
 * console opens the path to the department it shows). At most one of them.
 */
export const OrgTreeQuery = Type.Object({
  parentId: Type.Optional(withMessage(Id, MSG.orgTreeParentInvalid)),
  roots: Type.Optional(withMessage(Type.Literal(1), MSG.orgTreeRootsInvalid)),
  keyword: Type.Optional(withMessage(NameSearch(64), MSG.orgTreeKeywordInvalid)),
  pathTo: Type.Optional(withMessage(Id, MSG.orgTreePathToInvalid)),
})
export type OrgTreeQuery = Static<typeof OrgTreeQuery>

/** One department of a level: what the tree shows, and whether it can be opened. */
export const OrgLevelNode = Type.Object({
  id: Type.Integer(),
  organizationName: Type.String(),
  description: Type.Union([Type.String(), Type.Null()]),
  parent: Type.Union([Type.Integer(), Type.Null()]),
  childCount: Type.Integer(),
  hasChildren: Type.Boolean(),
  inScope: Type.Optional(
    Type.Boolean({ description: 'false：不在调用者数据权限范围内，仅作为上级显示（灰色，不可选）' }),
  ),
})
export type OrgLevelNode = Static<typeof OrgLevelNode>

/** An ancestor on a search hit's path. */
export const OrgPathStep = Type.Object({
  id: Type.Integer(),
  organizationName: Type.String(),
  inScope: Type.Optional(
    Type.Boolean({ description: 'false：不在调用者数据权限范围内的上级（灰色，不可选）' }),
  ),
})
export type OrgPathStep = Static<typeof OrgPathStep>

/** A department found by name (or by `pathTo`), with its ancestors from the root down (itself excluded). */
export const OrgSearchHit = Type.Object({
  ...OrgLevelNode.properties,
  path: Type.Array(OrgPathStep),
})
export type OrgSearchHit = Static<typeof OrgSearchHit>

/** What GET /org/tree answers: the whole tree, a level, or search hits, by its query. */
// The serializer writes an answer by the first schema it fits: a search hit also fits a level node
// (which does not forbid other fields), so the hits come first, or their paths would be dropped.
export const OrgTreeAnswer: TSchema = Type.Union([
  OrgTree,
  Type.Array(OrgSearchHit),
  Type.Array(OrgLevelNode),
])

export const OrgIdQuery = Type.Object({ orgId: withMessage(Id, '请选择部门') })
export type OrgIdQuery = Static<typeof OrgIdQuery>

export const PositionSimpleDTO = Type.Object({
  stationId: Id,
  stationName: OptionalNameSearch(),
})

export const PositionSimpleVo = Type.Object({
  positionId: Type.Integer(),
  stationId: Type.Integer(),
  stationName: Type.String(),
})

export const OrgDetail = Type.Object({
  id: Type.Integer(),
  organizationName: Type.String(),
  description: Type.Union([Type.String(), Type.Null()]),
  parent: Type.Union([Type.Integer(), Type.Null()]),
  organizationCompleteName: Type.String(),
  stationIds: Type.Array(Type.Integer()),
  positionSimpleDTOS: Type.Array(PositionSimpleVo),
})
export type OrgDetail = Static<typeof OrgDetail>

export const OrgInsertBody = Type.Object({
  organizationName: OrgName,
  description: Description,
  parent: withMessage(Id, '请选择上级部门'),
  /** job titles to create positions for: [1,2] or "1,2" */
  stationIds: Type.Optional(Type.Union([Type.Null(), IdList])),
})
export type OrgInsertBody = Static<typeof OrgInsertBody>

export const OrgUpdateBody = Type.Object({
  id: Id,
  organizationName: OrgName,
  description: Description,
  /** optional move under another department (never the root, never under its own subtree) */
  parent: Type.Optional(Type.Union([Type.Null(), Id])),
  /** when present, the department's positions are kept in step with it */
  positionSimpleDTOS: Type.Optional(
    Type.Union([Type.Array(PositionSimpleDTO, { maxItems: 1000 }), Type.Null()]),
  ),
})
export type OrgUpdateBody = Static<typeof OrgUpdateBody>
