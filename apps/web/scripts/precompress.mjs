// Writes a brotli (.br) and a gzip (.gz) copy next to each text asset of the built console, so the
// server sends them as they are (DESIGN.md §12: served compressed) instead of compressing every
// answer again. Run after `vite build`: `node scripts/precompress.mjs [dist]`.
import fs from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import zlib from 'node:zlib'

const brotli = promisify(zlib.brotliCompress)
const gzip = promisify(zlib.gzip)

/** What is worth compressing: text formats only (images and fonts are compressed already). */
const EXTENSIONS = new Set(['.js', '.mjs', '.css', '.html', '.svg', '.json', '.txt'])
/** Below this a compressed copy saves less than the headers it costs. */
const MIN_BYTES = 1024

function* files(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) yield* files(full)
    else if (EXTENSIONS.has(path.extname(entry.name))) yield full
  }
}

/** Compresses every text asset of `dir` above 1 KB; answers what was written. */
export async function precompress(dir) {
  const written = []
  for (const file of files(dir)) {
    const raw = fs.readFileSync(file)
    if (raw.length < MIN_BYTES) continue
    const [br, gz] = await Promise.all([
      brotli(raw, {
        params: {
          [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
          [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
        },
      }),
      gzip(raw, { level: zlib.constants.Z_BEST_COMPRESSION }),
    ])
    // a copy that is not smaller is left out: the server then sends the file itself
    if (br.length < raw.length) fs.writeFileSync(`${file}.br`, br)
    if (gz.length < raw.length) fs.writeFileSync(`${file}.gz`, gz)
    written.push({ file: path.relative(dir, file), raw: raw.length, br: br.length, gzip: gz.length })
  }
  return written
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const dir = path.resolve(process.argv[2] ?? 'dist')
  const written = await precompress(dir)
  const total = (key) => written.reduce((sum, f) => sum + f[key], 0)
  console.log(
    `precompressed ${written.length} files in ${path.relative(process.cwd(), dir) || '.'}: ` +
      `${total('raw')} B → br ${total('br')} B, gzip ${total('gzip')} B`,
  )
}
