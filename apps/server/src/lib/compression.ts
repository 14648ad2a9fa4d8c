import zlib from 'node:zlib'
import type { FastifyInstance, RouteOptions } from 'fastify'
import compress from '@fastify/compress'

/** Below this many bytes an answer goes out as it is. */
const COMPRESS_THRESHOLD = 8192

/**
 * Whether a response schema lets an answer grow without bound: a list, or a map of any keys. An answer
 * whose schema has neither (a check's verdict, the configuration, a saved id) stays a few hundred bytes.
 */
export function mayGrowLarge(schema: unknown): boolean {
  if (schema === null || typeof schema !== 'object') return false
  const node = schema as Record<string, unknown>
  if (node.type === 'array' || node.items !== undefined) return true
  if (node.patternProperties !== undefined) return true
  if (node.additionalProperties !== undefined && typeof node.additionalProperties === 'object') return true
  return Object.values(node).some((child) => typeof child === 'object' && mayGrowLarge(child))
}

/**
 * Answers above 8 KB go out compressed when the client accepts it. Below that, setting up compression
 * costs more time than the bytes it saves take on any network (measured: it halved the throughput of
 * /api/user/current, 1.7 KB). Brotli at quality 4: the default 11 spends more time than the wire saves
 * on a 2 MB department tree.
 *
 * A route whose answers can never reach the threshold gets no compression hook at all: the plugin's
 * check (content type, accepted encodings, size) ran on every answer and cost a signed-in check about
 * a tenth of its time. Routes without a response schema (the console's files, the documentation,
 * downloads) keep it. Request bodies are not decompressed: no client of this API sends them
 * compressed, and a compressed body is refused as unreadable like any other.
 */
export async function installCompression(app: FastifyInstance) {
  // before the plugin's own onRoute hook, which reads `compress` from the route
  app.addHook('onRoute', (route: RouteOptions) => {
    if (route.compress !== undefined) return
    const responses = route.schema?.response as Record<string, unknown> | undefined
    if (responses && !Object.values(responses).some(mayGrowLarge)) route.compress = false
  })
  await app.register(compress, {
    encodings: ['br', 'gzip'],
    threshold: COMPRESS_THRESHOLD,
    globalDecompression: false,
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
  })
}
