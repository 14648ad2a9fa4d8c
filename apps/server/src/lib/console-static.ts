import fs from 'node:fs'
import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import fastifyStatic from '@fastify/static'
import { API_PREFIX, MSG } from '@amg/contract'

/** Where the console's build puts its bundles (vite's assetsDir): file names that carry a content hash. */
const ASSETS_DIR = 'static'

/**
 * DESIGN.md §12. A hashed bundle never changes under its name: browsers keep it for a year without
 * asking again. index.html names the current bundles, so it is checked on every load.
 */
export const ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable'
export const PAGE_CACHE_CONTROL = 'no-cache'

/**
 * Serves the built console from `webDist` at / and answers what nothing else answered: a deep link
 * such as /usermanage gets index.html (the history fallback), an unknown /api path or a missing
 * bundle a 404. The build writes .br and .gz copies beside each bundle (apps/web/scripts/
 * precompress.mjs); they are sent as they are to clients that accept them.
 */
export async function registerConsole(app: FastifyInstance, webDist: string) {
  const hasConsole = fs.existsSync(path.join(webDist, 'index.html'))
  const assetsRoot = path.join(path.resolve(webDist), ASSETS_DIR) + path.sep
  if (hasConsole) {
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      index: false,
      preCompressed: true,
      // the path is the file sent, so a compressed copy (x.js.br) is judged by where it lies too
      setHeaders: (reply, file) =>
        reply.header(
          'cache-control',
          path.resolve(file).startsWith(assetsRoot) ? ASSET_CACHE_CONTROL : PAGE_CACHE_CONTROL,
        ),
    })
  }

  app.setNotFoundHandler((req, reply) => {
    const urlPath = req.url.split('?')[0]
    const isApi = urlPath === API_PREFIX || urlPath.startsWith(`${API_PREFIX}/`)
    // a bundle that is not there (an old page asking for a replaced bundle) must fail as a missing
    // file, not load the console page in its place
    const isAsset = urlPath.startsWith(`/${ASSETS_DIR}/`)
    if (isApi || isAsset || !hasConsole || req.method !== 'GET') {
      return reply.status(404).send({ code: 404, msg: MSG.notFoundApi, data: null })
    }
    // History fallback: a deep link such as /usermanage loads the console.
    return reply.type('text/html').sendFile('index.html')
  })
}
