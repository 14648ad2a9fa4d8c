import { LogController, type FastifyBaseLogger, type FastifyReply, type FastifyRequest } from 'fastify'
import { mayWrite } from './route-kind'

/**
 * Fastify's request log, one line per request instead of two. Writes and failures are always worth
 * a line (`info`, 5xx and errors at `error`); a successful read only at `debug`: at the default level a
 * line for every read cost about a third of the server's throughput. Fastify's other lines (errors,
 * streams, not found) are kept as they are.
 */
export class RequestLog extends LogController {
  override incomingRequest() {}

  override requestCompleted(error: Error | null | undefined, req: FastifyRequest, reply: FastifyReply) {
    const status = reply.statusCode
    const level = requestLogLevel(status, mayWrite(req.method, req.routeOptions.config), error)
    // most answers are reads logged at debug: not worked out at all when that level is off
    // (the client address alone means walking the proxy chain)
    if (!logsAt(reply.log, level)) return
    reply.log[level](
      requestLogLine(
        { method: req.method, url: req.url, ip: req.ip },
        status,
        (req as { user?: { id: number } | null }).user?.id,
        reply.elapsedTime,
        error,
      ),
      'request completed',
    )
  }
}

/** The level of a request's line: failures at error, refusals and writes at info, a successful read at debug. */
export const requestLogLevel = (status: number, writes: boolean, error?: Error | null) =>
  error || status >= 500 ? 'error' : status >= 400 || writes ? 'info' : 'debug'

/** What a request's line says (also of the answers given outside Fastify: forward-fast-path.ts). */
export const requestLogLine = (
  req: { method?: string; url?: string; ip?: string },
  status: number,
  userId: number | undefined,
  elapsedMs: number,
  error?: Error | null,
) => ({
  req,
  res: { statusCode: status },
  userId,
  responseTime: Math.round(elapsedMs * 10) / 10,
  ...(error ? { err: { message: error.message } } : {}),
})

/**
 * Whether `log` writes lines at `level`: pino's check (Fastify's types omit it; its silent logger, which
 * writes nothing, lacks it), so that a line nobody will see is not even built.
 */
export function logsAt(log: FastifyBaseLogger, level: string): boolean {
  const enabled = (log as { isLevelEnabled?: (level: string) => boolean }).isLevelEnabled
  return enabled ? enabled.call(log, level) : false
}
