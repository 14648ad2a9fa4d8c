import path from 'node:path'

/**
 * How a stored file is served (DESIGN.md §11). The type comes from the uploader, so it is trusted
 * only when it is on a short list of inert types: anything a browser could run or render as a page
 * (HTML, SVG, XML, JavaScript, and whatever is not listed) goes out as an octet-stream attachment.
 */
export interface ServedAs {
  contentType: string
  disposition: 'inline' | 'attachment'
}

/** Raster images the console previews in place; a browser only ever draws them. */
const INLINE_IMAGES = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/bmp',
  'image/avif',
  'image/x-icon',
  'image/vnd.microsoft.icon',
])

/** Inert documents and archives: their own type, but always saved, never opened in the page. */
const ATTACHMENT_TYPES = new Set([
  'application/pdf',
  'text/plain',
  'text/csv',
  'application/msword',
  'application/vnd.ms-excel',
  'application/vnd.ms-powerpoint',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  'application/vnd.oasis.opendocument.text',
  'application/vnd.oasis.opendocument.spreadsheet',
  'application/vnd.oasis.opendocument.presentation',
  'application/zip',
  'application/x-zip-compressed',
  'application/gzip',
  'application/x-gzip',
  'application/x-tar',
  'application/x-7z-compressed',
  'application/vnd.rar',
  'application/x-rar-compressed',
])

/**
 * Names a browser would treat as active whatever type is declared (saved to disk and opened, or
 * matched by extension): they never keep their declared type, even a harmless-looking one.
 */
const ACTIVE_EXTENSIONS = new Set([
  '.html',
  '.htm',
  '.xhtml',
  '.shtml',
  '.svg',
  '.svgz',
  '.xml',
  '.xsl',
  '.xslt',
  '.js',
  '.mjs',
  '.cjs',
  '.swf',
])

export const OCTET_STREAM = 'application/octet-stream'

export function servedAs(fileName: string, mimeType: string | null): ServedAs {
  const type = (mimeType ?? '').toLowerCase()
  if (ACTIVE_EXTENSIONS.has(path.extname(fileName).toLowerCase()))
    return { contentType: OCTET_STREAM, disposition: 'attachment' }
  if (INLINE_IMAGES.has(type)) return { contentType: type, disposition: 'inline' }
  if (ATTACHMENT_TYPES.has(type)) return { contentType: type, disposition: 'attachment' }
  return { contentType: OCTET_STREAM, disposition: 'attachment' }
}
