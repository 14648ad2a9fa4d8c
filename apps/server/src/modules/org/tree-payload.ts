import zlib from 'node:zlib'

/**
 * The department tree's answer kept as it goes on the wire: serialized once, compressed once per
 * encoding, until a department changes. Rebuilding and serializing 10,000 departments (2 MB) and
 * compressing them on every call was most of the call's cost.
 */
export interface TreePayload {
  json: string
  br?: Buffer
  gzip?: Buffer
}

export type WireEncoding = 'br' | 'gzip'

/**
 * What each Accept-Encoding header said: a client sends the same one on every request and there are
 * few of them, so a header's reading is remembered (short ones, up to 64) rather than parsed again.
 */
const readHeaders = new Map<string, WireEncoding | null>()
const REMEMBERED_HEADERS = 64
const REMEMBERED_LENGTH = 200

/** Brotli, else gzip, when the client accepts it (an explicit q=0 refuses). */
export function acceptedEncoding(header: string | string[] | undefined): WireEncoding | null {
  if (typeof header !== 'string' || header.length > REMEMBERED_LENGTH) return readEncoding(header)
  let encoding = readHeaders.get(header)
  if (encoding === undefined) {
    encoding = readEncoding(header)
    if (readHeaders.size < REMEMBERED_HEADERS) readHeaders.set(header, encoding)
  }
  return encoding
}

function readEncoding(header: string | string[] | undefined): WireEncoding | null {
  const offered = new Map<string, number>()
  for (const part of (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';')
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)).find(Boolean)
    offered.set(name, q ? Number(q[1]) : 1)
  }
  for (const encoding of ['br', 'gzip'] as const) if ((offered.get(encoding) ?? 0) > 0) return encoding
  return null
}

/** The payload in `encoding`, compressed on first use and kept with it. */
export function encoded(payload: TreePayload, encoding: WireEncoding): Buffer {
  if (encoding === 'br')
    return (payload.br ??= zlib.brotliCompressSync(payload.json, {
      params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 9 },
    }))
  return (payload.gzip ??= zlib.gzipSync(payload.json, { level: 9 }))
}
