// What a first visit downloads of the built console (DESIGN.md §12: initial JS ≤ 250 kB gzip): the
// scripts index.html loads (its module script and modulepreload links) and everything they import
// statically, raw, gzip and brotli. Screens loaded on demand are counted apart.
// Run: `npx tsx apps/web/scripts/bundle-report.ts [dist]`; `npm run bench` calls bundleReport().
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import zlib from 'node:zlib'

/** DESIGN.md §12, in bytes (kB as vite counts it: 1000 bytes). */
export const INITIAL_JS_BUDGET_GZIP = 250_000

export interface Sizes {
  raw: number
  gzip: number
  brotli: number
}
export interface FileSizes extends Sizes {
  file: string
}
export interface BundleReport {
  dist: string
  /** the entry chunk and its static imports: what the browser runs before the first screen */
  initialJs: Sizes & { files: FileSizes[] }
  initialCss: Sizes & { files: FileSizes[] }
  /** every other script (the screens and what only they use), loaded on demand */
  lazyJs: Sizes & { files: number; largest: FileSizes | null }
  budgetGzip: number
  withinBudget: boolean
  /** the schema library of the API contract, which the console must not ship */
  serverSchemasBundled: boolean
}

function sizesOf(dist: string, file: string): FileSizes {
  const raw = fs.readFileSync(path.join(dist, file))
  return {
    file,
    raw: raw.length,
    gzip: zlib.gzipSync(raw, { level: zlib.constants.Z_BEST_COMPRESSION }).length,
    brotli: zlib.brotliCompressSync(raw, {
      params: { [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY },
    }).length,
  }
}

const sum = (files: Sizes[]): Sizes => ({
  raw: files.reduce((n, f) => n + f.raw, 0),
  gzip: files.reduce((n, f) => n + f.gzip, 0),
  brotli: files.reduce((n, f) => n + f.brotli, 0),
})

/** `src`/`href` of the tags that load at once: module scripts, modulepreload and stylesheet links. */
function htmlAssets(html: string) {
  const scripts: string[] = []
  const styles: string[] = []
  for (const [tag] of html.matchAll(/<(?:script|link)\b[^>]*>/g)) {
    const url = /\b(?:src|href)="([^"]+)"/.exec(tag)?.[1]
    if (!url || /^[a-z]+:\/\//i.test(url)) continue
    if (/<script\b/.test(tag) || /rel="modulepreload"/.test(tag)) scripts.push(url.replace(/^\//, ''))
    else if (/rel="stylesheet"/.test(tag)) styles.push(url.replace(/^\//, ''))
  }
  return { scripts, styles }
}

/** The chunks a chunk imports statically (`import … from "./x.js"`, `import "./x.js"`); not import(). */
function staticImports(code: string): string[] {
  const found: string[] = []
  for (const m of code.matchAll(/\b(?:from|import)\s*["'](\.{1,2}\/[^"']+\.js)["']/g)) found.push(m[1])
  return found
}

function listJs(dir: string, base = dir): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) return listJs(full, base)
    return entry.name.endsWith('.js') ? [path.relative(base, full).split(path.sep).join('/')] : []
  })
}

export function bundleReport(distDir: string): BundleReport {
  const dist = path.resolve(distDir)
  const { scripts, styles } = htmlAssets(fs.readFileSync(path.join(dist, 'index.html'), 'utf8'))
  // the entry and the modulepreload links, and whatever they import statically (a link may be missing)
  const initial = new Set<string>()
  const queue = [...scripts]
  while (queue.length) {
    const file = queue.shift()!
    if (initial.has(file) || !fs.existsSync(path.join(dist, file))) continue
    initial.add(file)
    const code = fs.readFileSync(path.join(dist, file), 'utf8')
    for (const imported of staticImports(code))
      queue.push(path.posix.normalize(path.posix.join(path.posix.dirname(file), imported)))
  }
  const initialFiles = [...initial].map((f) => sizesOf(dist, f))
  const cssFiles = styles.filter((f) => fs.existsSync(path.join(dist, f))).map((f) => sizesOf(dist, f))
  const allJs = listJs(dist)
  const lazyFiles = allJs.filter((f) => !initial.has(f)).map((f) => sizesOf(dist, f))
  const initialJs = { ...sum(initialFiles), files: initialFiles }
  return {
    dist,
    initialJs,
    initialCss: { ...sum(cssFiles), files: cssFiles },
    lazyJs: {
      ...sum(lazyFiles),
      files: lazyFiles.length,
      largest: lazyFiles.reduce<FileSizes | null>((a, f) => (a && a.gzip >= f.gzip ? a : f), null),
    },
    budgetGzip: INITIAL_JS_BUDGET_GZIP,
    withinBudget: initialJs.gzip <= INITIAL_JS_BUDGET_GZIP,
    // TypeBox marks every schema with this symbol key
    serverSchemasBundled: allJs.some((f) =>
      fs.readFileSync(path.join(dist, f), 'utf8').includes('TypeBox.Kind'),
    ),
  }
}

/** One JSON object a line: each initial script, then the totals. */
export function formatBundleReport(report: BundleReport): string {
  const { files, ...initialTotal } = report.initialJs
  const lines = files.map((f) =>
    JSON.stringify({ initialJs: f.file, raw: f.raw, gzip: f.gzip, brotli: f.brotli }),
  )
  lines.push(
    JSON.stringify({
      initialJsTotal: initialTotal,
      budgetGzip: report.budgetGzip,
      withinBudget: report.withinBudget,
    }),
    JSON.stringify({ initialCss: { raw: report.initialCss.raw, gzip: report.initialCss.gzip } }),
    JSON.stringify({
      lazyJs: { files: report.lazyJs.files, raw: report.lazyJs.raw, gzip: report.lazyJs.gzip },
    }),
    JSON.stringify({ largestLazyChunk: report.lazyJs.largest }),
    JSON.stringify({ serverSchemasBundled: report.serverSchemasBundled }),
  )
  return lines.join('\n')
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const dist = process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist')
  console.log(formatBundleReport(bundleReport(dist)))
}
