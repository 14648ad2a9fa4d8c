import type { IncomingMessage, ServerResponse } from 'node:http'
import type { FastifyInstance } from 'fastify'
import helmet from 'helmet'

/** Helmet's policy for this server: the console loads only its own scripts, styles inline (antd). */
const POLICY: Parameters<typeof helmet>[0] = {
  contentSecurityPolicy: {
    directives: {
      defaultSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:'],
      mediaSrc: ["'self'", 'blob:'],
      scriptSrc: ["'self'"],
      connectSrc: ["'self'"],
      upgradeInsecureRequests: null,
    },
  },
  crossOriginEmbedderPolicy: false,
}

/** The headers Helmet sets for this policy, worked out once: they do not depend on the request. */
export function securityHeaders(): Record<string, string> {
  const headers: Record<string, string> = {}
  const res = {
    setHeader: (name: string, value: string) => void (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
  }
  helmet(POLICY)({} as IncomingMessage, res as unknown as ServerResponse, () => {})
  return headers
}

/**
 * Helmet's headers on every answer. @fastify/helmet builds Helmet anew for each request, parsing the
 * whole policy every time (a tenth of a signed-in read's cost); the headers are the same every time,
 * so they are computed once and copied.
 */
export function installSecurityHeaders(app: FastifyInstance) {
  const headers = securityHeaders()
  app.addHook('onRequest', (_req, reply, done) => {
    reply.headers(headers)
    done()
  })
}
