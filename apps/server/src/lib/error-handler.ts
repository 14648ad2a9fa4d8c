import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { MESSAGE_KEYWORD, MSG } from '@amg/contract'
import { AppError, UnavailableError } from './errors'
import { isDatabaseUnavailable } from '../db/unavailable'

/** What a 503 for a lost or unreachable database tells the client: try again in a few seconds. */
export const DATABASE_RETRY_AFTER_SECONDS = 5

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
/** SQLSTATE class 22 (data exception): a value the column cannot hold, out of range, bad text. */
const isPgDataError = (code: string | undefined) => typeof code === 'string' && /^22[0-9A-Z]{3}$/.test(code)

/**
 * What of an error may be logged: drizzle's query errors carry the failed query's parameters
 * (password hashes among them) in their message and fields; only the SQL text and the database's
 * own message and code are kept.
 */
export function loggableError(error: Error & { cause?: unknown; query?: string; code?: string }) {
  const cause = error.cause as { message?: string; code?: string } | undefined
  if (typeof error.query === 'string' || error.name === 'DrizzleQueryError') {
    return {
      type: error.name,
      message: cause?.message ?? 'query failed',
      code: cause?.code ?? error.code,
      query: error.query,
    }
  }
  return { type: error.name, message: error.message, code: error.code, stack: error.stack }
}

/** Every error becomes the envelope with the HTTP status of DESIGN.md §4; details stay in the log. */
export function installErrorHandler(app: FastifyInstance) {
  app.setSchemaErrorFormatter((errors, dataVar) => {
    const err = new Error(validationMessage(errors as unknown as AjvError[], dataVar)) as FastifyError
    err.statusCode = 400
    return err
  })

  app.setErrorHandler((error: FastifyError & { cause?: { code?: string } }, req, reply) => {
    const { status, msg } = errorAnswer(error, req, reply)
    return reply.status(status).send({ code: status, msg, data: null })
  })
}

/**
 * The status and Chinese message an error answers with (the envelope's, and SCIM's error schema's:
 * modules/scim), logging what only the log should see; a 503's retry-after header is set here.
 */
export function errorAnswer(
  error: FastifyError & { cause?: { code?: string } },
  req: FastifyRequest,
  reply: FastifyReply,
): { status: number; msg: string } {
  const send = (status: number, msg: string) => ({ status, msg })
  if (error instanceof UnavailableError) reply.header('retry-after', String(error.retryAfterSeconds))
  if (error instanceof AppError) return send(error.status, error.message)
  // Before the SQLSTATE checks below: a lost connection is the server's trouble, not the input's.
  // The request's transaction is gone with it (rolled back), so nothing of the request is kept.
  if (isDatabaseUnavailable(error)) {
    req.log.warn({ err: loggableError(error) }, 'database unavailable')
    reply.header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS))
    return send(503, MSG.serviceUnavailable)
  }
  if (error.validation) return send(400, error.message)
  const pgCode = error.cause?.code ?? (error as { code?: string }).code
  if (pgCode === PG_UNIQUE) return send(409, '数据已存在，不能重复添加')
  if (pgCode === PG_FOREIGN_KEY) return send(409, '数据仍被引用或引用的数据不存在')
  if (isPgDataError(pgCode)) {
    req.log.info({ err: loggableError(error) }, 'data error')
    return send(400, '请求参数不正确：数据格式不合法或超出范围')
  }
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
    req.log.info({ err: loggableError(error) }, 'client error')
    return send(error.statusCode, CLIENT_ERROR_MSG[error.statusCode] ?? MSG.badRequest)
  }
  req.log.error({ err: loggableError(error) }, 'unexpected error')
  return send(500, MSG.serverError)
}

/** Messages for the client errors Fastify or Node raise themselves. */
const CLIENT_ERROR_MSG: Record<number, string> = {
  400: MSG.badRequest,
  408: '请求超时',
  413: MSG.payloadTooLarge,
  414: '请求地址过长',
  415: '不支持的请求内容类型',
  431: '请求头或请求地址过长',
}

/**
 * Errors Node's HTTP parser raises before Fastify sees a request (a header block or URL over the
 * limit, a malformed request line) are answered in the envelope too, then the connection closes.
 */
export function installClientErrorHandler(err: Error & { code?: string }, socket: import('node:net').Socket) {
  if (!socket.writable) return
  const status =
    err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400
  const body = JSON.stringify({ code: status, msg: CLIENT_ERROR_MSG[status] ?? MSG.badRequest, data: null })
  const reason =
    status === 431 ? 'Request Header Fields Too Large' : status === 408 ? 'Request Timeout' : 'Bad Request'
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(
      body,
    )}\r\nConnection: close\r\n\r\n${body}`,
  )
}
