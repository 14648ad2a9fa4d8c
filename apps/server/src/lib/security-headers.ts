import type { IncomingMessage, ServerResponse } from 'node:http'
import type { FastifyInstance } from 'fastify'
import helmet from 'helmet'
import { API_PREFIX } from '@amg/contract'
import { JSON_TYPE } from './reply'

/** Where the API's documentation pages are (HTML, served by @fastify/swagger-ui). */
export const API_DOCS_PREFIX = `${API_PREFIX}/docs`

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
export function pageSecurityHeaders(): Record<string, string> {
  const headers: Record<string, string> = {}
  const res = {
    setHeader: (name: string, value: string) => void (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
  }
  helmet(POLICY)({} as IncomingMessage, res as unknown as ServerResponse, () => {})
  return headers
}

/**
 * What a JSON answer of the API carries. Of Helmet's twelve headers only these mean anything for a
 * document no browser is meant to render: no sniffing it into a page, and, should someone open it
 * anyway, nothing it could load and no frame it could be put in. The rest (referrer, cross-origin
 * isolation, download and DNS-prefetch hints, HSTS, which the console's page sets for the whole host)
 * concern pages; sent with every answer they were a sixth of the bytes of a small one and cost about a
 * tenth of the API's throughput.
 */
export const API_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
}

/**
 * The headers of a JSON answer of the API as its routes send them, in their order (the security
 * headers, then the content type), as names and values one after the other, as `writeHead` takes them:
 * for the answers sent before Fastify.
 */
export const JSON_ANSWER_HEADERS: readonly string[] = [
  ...Object.entries(API_SECURITY_HEADERS).flat(),
  'content-type',
  JSON_TYPE,
]

/** The paths of JSON answers: the API's, except its documentation pages. */
export const isJsonApiPath = (url: string) =>
  url.startsWith(`${API_PREFIX}/`) && !url.startsWith(API_DOCS_PREFIX)

/**
 * Security headers on every answer: Helmet's page policy on the console and the API documentation,
 * the short JSON set on the API. @fastify/helmet builds Helmet anew for each request, parsing the whole
 * policy every time (a tenth of a signed-in read's cost); the headers are the same every time, so they
 * are computed once and copied.
 */
export function installSecurityHeaders(app: FastifyInstance) {
  const page = pageSecurityHeaders()
  app.addHook('onRequest', (req, reply, done) => {
    reply.headers(isJsonApiPath(req.url) ? API_SECURITY_HEADERS : page)
    done()
  })
}
