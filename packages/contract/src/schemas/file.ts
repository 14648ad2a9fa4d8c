import { Type, type Static } from '@sinclair/typebox'
import { withMessage } from './common'

/** How long an uploaded file is kept (DESIGN.md §5): the console's default is 1h. */
export const KEEP_TIMES = { '30m': 30 * 60, '1h': 60 * 60, '7d': 7 * 24 * 60 * 60 } as const
export type KeepTime = keyof typeof KEEP_TIMES
export const DEFAULT_KEEP_TIME: KeepTime = '1h'

export const isKeepTime = (value: string): value is KeepTime =>
  Object.prototype.hasOwnProperty.call(KEEP_TIMES, value)

export const FILE_MSG = {
  keepTimeInvalid: '保存时长只能是 30m、1h 或 7d',
  fileRequired: '请选择要上传的文件',
  notMultipart: '请以 multipart/form-data 方式上传文件',
  badMultipart: '上传内容格式不正确',
  tooManyFiles: '一次只能上传一个文件',
  fileNotFound: '文件不存在或已过期',
  fileIdRequired: '请提供正确的文件编号',
} as const

/**
 * The permission code that lets its holder download every user's files (DESIGN.md §11); without it
 * a `file:download` holder downloads only the files they uploaded.
 */
export const FILE_DOWNLOAD_ALL_CODE = 'file:download-all'

/** A file id: a random UUID (122 random bits), so ids cannot be guessed or counted through. */
export const FILE_ID_PATTERN =
  '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-4[0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}$'

/** Answer of POST /file-manage/upload-one-step. */
export const UploadResult = Type.Object({
  fileId: Type.String({ description: '文件编号（随机 UUID）' }),
  fileName: Type.String(),
  size: Type.Integer({ description: '字节数' }),
  url: Type.String({ description: '下载地址，如 /api/file-manage/download?fileId=<文件编号>' }),
  expireTime: Type.String({ format: 'date-time' }),
})
export type UploadResult = Static<typeof UploadResult>

/** Documented body of the upload (multipart, parsed by the handler; not validated by the schema). */
export const UploadBodyDoc = Type.Object({
  file: Type.String({ format: 'binary', description: '要上传的文件' }),
  keepTime: Type.Optional(
    Type.Union([Type.Literal('30m'), Type.Literal('1h'), Type.Literal('7d')], { default: '1h' }),
  ),
})

export const DownloadQuery = Type.Object({
  fileId: withMessage(Type.String({ pattern: FILE_ID_PATTERN }), FILE_MSG.fileIdRequired),
})
export type DownloadQuery = Static<typeof DownloadQuery>

export const downloadUrl = (fileId: string) =>
  `/api/file-manage/download?fileId=${encodeURIComponent(fileId)}`
