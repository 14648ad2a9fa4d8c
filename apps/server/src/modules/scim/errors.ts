import type { FastifyError, FastifyInstance } from 'fastify'
import { AppError } from '../../lib/errors'
import { errorAnswer } from '../../lib/error-handler'

/** SCIM's error schema (RFC 7644 §3.12): `status` as a string, `scimType` for the 400s it names. */
export const SCIM_ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error'

export type ScimType =
  | 'invalidFilter'
  | 'invalidPath'
  | 'invalidValue'
  | 'invalidSyntax'
  | 'uniqueness'
  | 'mutability'
  | 'noTarget'
  | 'tooMany'

/** A refusal with its SCIM type; `detail` is Chinese, shown to whoever reads the client's log. */
export class ScimError extends AppError {
  constructor(
    status: number,
    readonly scimType: ScimType | undefined,
    detail: string,
  ) {
    super(status, detail)
  }
}

export const scimBad = (scimType: ScimType, detail: string) => new ScimError(400, scimType, detail)

export const SCIM_MSG = {
  unauthorized: '缺少或无效的 Bearer 令牌：请使用 API 密钥',
  noScim: '该 API 密钥的账号没有 SCIM 接口权限（scim）',
  notFound: '资源不存在',
  stale: '资源已被修改（If-Match 与当前版本不一致）',
  badFilter: '过滤条件不正确',
  badPath: 'PATCH 路径不正确',
  badOp: 'PATCH 操作不正确，只支持 add、replace、remove',
  noTargetPath: 'remove 操作必须给出路径',
  noTarget: '路径没有匹配的值',
  unknownSchema: '不支持的 schema',
  badSchemas: 'schemas 必须是包含资源 schema 的数组',
  badBody: '请求体必须是 JSON 对象',
  userNameRequired: 'userName 不能为空',
  displayNameRequired: 'displayName 不能为空',
  badBoolean: 'active 必须是布尔值',
  badMember: '成员的 value 必须是用户 id',
  memberNotFound: '成员用户不存在',
  badId: 'id 不正确',
  idMutable: 'id 不能修改',
  ldapRecord: '该记录来自 LDAP 目录同步，不能通过 SCIM 修改',
  badVersion: 'If-Match 格式不正确',
} as const

/**
 * What a message of the product's services means to a SCIM client: a taken name is `uniqueness`,
 * another 400 `invalidValue`; 401/403/404/409/412 carry no type of their own.
 */
function typeOf(status: number, detail: string): ScimType | undefined {
  if (status === 409 && detail.endsWith('已存在')) return 'uniqueness'
  if (status === 400) return 'invalidValue'
  return undefined
}

/** Every error of /scim/v2 leaves in SCIM's error schema, its detail the product's own Chinese message. */
export function installScimErrors(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError & { cause?: { code?: string } }, req, reply) => {
    const { status, msg } = errorAnswer(error, req, reply)
    const json =
      error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
    const scimType =
      error instanceof ScimError ? error.scimType : json ? 'invalidSyntax' : typeOf(status, msg)
    return reply
      .status(status)
      .type('application/scim+json; charset=utf-8')
      .send({
        schemas: [SCIM_ERROR_SCHEMA],
        status: String(status),
        ...(scimType ? { scimType } : {}),
        detail: msg,
      })
  })
  app.setNotFoundHandler((_req, reply) =>
    reply
      .status(404)
      .type('application/scim+json; charset=utf-8')
      .send({ schemas: [SCIM_ERROR_SCHEMA], status: '404', detail: SCIM_MSG.notFound }),
  )
}
