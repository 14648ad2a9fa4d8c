import { LogController, type FastifyReply, type FastifyRequest } from 'fastify'
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
    const level =
      error || status >= 500
        ? 'error'
        : status >= 400 || mayWrite(req.method, req.routeOptions.config)
          ? 'info'
          : 'debug'
    reply.log[level](
      {
        req: { method: req.method, url: req.url, ip: req.ip },
        res: { statusCode: status },
        userId: (req as { user?: { id: number } | null }).user?.id,
        responseTime: Math.round(reply.elapsedTime * 10) / 10,
        ...(error ? { err: { message: error.message } } : {}),
      },
      'request completed',
    )
  }
}
