import type { FastifyError, FastifyInstance } from 'fastify'
import { MESSAGE_KEYWORD, MSG } from '@amg/contract'
import { AppError } from './errors'

interface AjvError {
  keyword: string
  instancePath: string
  params: Record<string, unknown>
  parentSchema?: Record<string, unknown>
  message?: string
}

/** The first schema failure as a Chinese message: the field's own `x-message` when it has one. */
export function validationMessage(errors: AjvError[], dataVar: string): string {
  const e = errors.find((x) => x.keyword !== 'anyOf') ?? errors[0]
  if (!e) return MSG.badRequest
  if (e.keyword === 'required') {
    const prop = String(e.params.missingProperty)
    const props = e.parentSchema?.properties as Record<string, Record<string, unknown>> | undefined
    const own = props?.[prop]?.[MESSAGE_KEYWORD]
    return typeof own === 'string' ? own : `缺少必填参数 ${prop}`
  }
  const own = e.parentSchema?.[MESSAGE_KEYWORD]
  if (typeof own === 'string') return own
  const field = e.instancePath.replace(/^\//, '').replace(/\//g, '.') || dataVar
  return `参数 ${field} 不正确：${describe(e)}`
}

function describe(e: AjvError): string {
  const p = e.params
  switch (e.keyword) {
    case 'type':
      return `应为${({ string: '字符串', integer: '整数', number: '数字', boolean: '布尔值', array: '数组', object: '对象', null: '空值' } as Record<string, string>)[String(p.type)] ?? String(p.type)}`
    case 'minLength':
      return `长度不能少于 ${p.limit} 个字符`
    case 'maxLength':
      return `长度不能超过 ${p.limit} 个字符`
    case 'minimum':
      return `不能小于 ${p.limit}`
    case 'maximum':
      return `不能大于 ${p.limit}`
    case 'minItems':
      return `至少需要 ${p.limit} 项`
    case 'maxItems':
      return `最多 ${p.limit} 项`
    case 'enum':
    case 'const':
      return '取值不在允许范围内'
    case 'pattern':
    case 'format':
      return '格式不正确'
    case 'additionalProperties':
      return `不支持的参数 ${p.additionalProperty}`
    default:
      return '取值不合法'
  }
}

/** PostgreSQL error codes that reach here only when a service missed a check. */
const PG_UNIQUE = '23505'
const PG_FOREIGN_KEY = '23503'

/** Every error becomes the envelope with the HTTP status of DESIGN.md §4; details stay in the log. */
export function installErrorHandler(app: FastifyInstance) {
  app.setSchemaErrorFormatter((errors, dataVar) => {
    const err = new Error(validationMessage(errors as unknown as AjvError[], dataVar)) as FastifyError
    err.statusCode = 400
    return err
  })

  app.setErrorHandler((error: FastifyError & { cause?: { code?: string } }, req, reply) => {
    const send = (status: number, msg: string) => reply.status(status).send({ code: status, msg, data: null })
    if (error instanceof AppError) return send(error.status, error.message)
    if (error.validation) return send(400, error.message)
    const pgCode = (error as { code?: string }).code ?? error.cause?.code
    if (pgCode === PG_UNIQUE) return send(409, '数据已存在，不能重复添加')
    if (pgCode === PG_FOREIGN_KEY) return send(409, '数据仍被引用或引用的数据不存在')
    switch (error.code) {
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
        return send(400, MSG.badJson)
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
        return send(400, '请求体不能为空')
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return send(415, '不支持的请求内容类型')
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return send(413, MSG.payloadTooLarge)
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      req.log.info({ err: error }, 'client error')
      return send(error.statusCode, MSG.badRequest)
    }
    req.log.error({ err: error }, 'unexpected error')
    return send(500, MSG.serverError)
  })
}
