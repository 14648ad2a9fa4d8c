import { Type, type Static } from '@sinclair/typebox'
import { UserListBody } from './user'
import { SyncDiff } from './directory'

/** Import and export (DESIGN.md §15). */

export const IMPORT_MODES = ['insert', 'upsert'] as const
export type ImportMode = (typeof IMPORT_MODES)[number]

/** The fields of POST /user/import besides `file` (multipart: the handler reads and checks them). */
export const ImportBodyDoc = Type.Object({
  file: Type.String({ format: 'binary', description: '.xlsx 或 .csv，至多 20MB、200000 行' }),
  mode: Type.Optional(
    Type.Union([Type.Literal('insert'), Type.Literal('upsert')], {
      description: 'insert：只新建；upsert：登录名已存在时修改（默认 insert）',
    }),
  ),
  dryRun: Type.Optional(Type.String({ description: 'true：仅校验，不写入（默认 false）' })),
  allowSuperAdmin: Type.Optional(
    Type.String({
      description:
        'true：允许导入超级管理员（默认 false：授予超级管理员角色的行失败）；仍只有超级管理员能授予（用户导入）',
    }),
  ),
})

export const ImportStarted = Type.Object({ jobId: Type.String() })
export type ImportStarted = Static<typeof ImportStarted>

export const ImportJobQuery = Type.Object({ jobId: Type.String({ minLength: 1, maxLength: 64 }) })
export type ImportJobQuery = Static<typeof ImportJobQuery>

export const ImportJob = Type.Object({
  /**
   * interrupted (DESIGN.md §19): the instance running the job stopped (its lease ran out); the counts
   * are what it committed
   */
  status: Type.Union([
    Type.Literal('running'),
    Type.Literal('done'),
    Type.Literal('failed'),
    Type.Literal('interrupted'),
  ]),
  kind: Type.Union([Type.Literal('user'), Type.Literal('org'), Type.Literal('directory')]),
  mode: Type.Union([Type.Literal('insert'), Type.Literal('upsert')]),
  dryRun: Type.Boolean(),
  total: Type.Integer(),
  done: Type.Integer(),
  inserted: Type.Integer(),
  updated: Type.Integer(),
  unchanged: Type.Integer(),
  failed: Type.Integer(),
  /** a failure of the job itself (not of a row) */
  msg: Type.Union([Type.String(), Type.Null()]),
  /** a directory sync's diff (DESIGN.md §22), once it has ended */
  diff: Type.Optional(Type.Union([SyncDiff, Type.Null()])),
})
export type ImportJob = Static<typeof ImportJob>

/** GET /user/export: the user list's filters as query parameters. */
export const UserExportQuery = Type.Object({
  nickName: UserListBody.properties.nickName,
  keyword: UserListBody.properties.keyword,
  orgId: Type.Optional(Type.Integer({ minimum: 1, maximum: 2147483647 })),
  status: Type.Optional(Type.Integer({ minimum: 1, maximum: 2 })),
})
export type UserExportQuery = Static<typeof UserExportQuery>
