import { MSG } from './messages'

/**
 * The one reading of a request URI that every decision is made on (DESIGN.md §10a): forward auth,
 * check, check-batch, explain and who-can all match permission patterns against this path.
 *
 * A gateway asks about the URI it is about to pass on; the service behind it then reads that URI
 * its own way: it percent-decodes, resolves `..`, maps `\` to `/` (every WHATWG URL parser does),
 * strips `;jsessionid`-style parameters, merges `//`, maybe normalises Unicode. If its reading can
 * differ from ours, a user allowed `/public/**` reaches `/public/..%2fadmin` = `/admin`. So the
 * path is percent-decoded exactly once, and anything a service could read as another path is
 * refused instead of decided on:
 *
 * - a `#` before the query (where a path ends is then a matter of opinion);
 * - an encoded `/` or `\` (`%2F`, `%5C`, any case) and a raw `\`;
 * - `;` (raw or `%3B`): Tomcat and Spring cut a segment at it, so `..;` is `..` there;
 * - `.`/`..` segments however written: `.`, `%2e`, `.%2E`, overlong UTF-8 (`%c0%ae`, refused as
 *   invalid UTF-8), dots followed by spaces (Windows drops trailing dots and spaces), and Unicode
 *   look-alikes that NFKC turns into dots or slashes (`．．／`, U+2024/U+2025): for services that
 *   normalise Unicode, the NFKC form of a non-ASCII path must pass the same rules and hold the same
 *   `/ \ ? # % ;` in the same order;
 * - empty segments (`//`): a service merging slashes acts on another path; a trailing `/` is kept;
 * - control characters (C0, DEL, C1), raw or encoded, NUL included; a raw space (`%20` is fine);
 * - a malformed escape (`%zz`, `%4`) or escapes that are not valid UTF-8;
 * - double encoding: a `%` left after decoding followed by a hex digit (`%252e` → `%2e`).
 *
 * The query string is dropped (`?` and what follows). Raw non-ASCII characters are taken as the
 * text they are (a JSON `path` is Unicode text), i.e. as their UTF-8 escapes would decode.
 *
 * Answers the decoded path, or a refusal naming the problem in Chinese. On the common safe path
 * (no `%`, `\`, `;`, `#`, no dot after a slash, no `//`, printable ASCII) it allocates nothing but
 * the cut at `?`.
 */
export function canonicalPath(raw: string): string | PathRefusal {
  let end = raw.length
  let plain = true
  let prev = 0
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i)
    if (c === 0x3f /* ? */) {
      end = i
      break
    }
    if (
      c < 0x21 ||
      c > 0x7e ||
      c === 0x25 /* % */ ||
      c === 0x5c /* \ */ ||
      c === 0x3b /* ; */ ||
      c === 0x23 /* # */ ||
      (prev === 0x2f /* / */ && (c === 0x2e /* . */ || c === 0x2f))
    )
      plain = false
    prev = c
  }
  if (raw.charCodeAt(0) !== 0x2f) return REFUSED.slash
  if (end > MAX_PATH_LENGTH) return REFUSED.tooLong
  const path = end === raw.length ? raw : raw.slice(0, end)
  return plain ? path : carefulReading(path)
}

/** Why a path is refused: a fixed Chinese message from MSG. */
export interface PathRefusal {
  readonly refused: string
}

/** The longest path (query excluded) decided on, as the call schemas allow. */
export const MAX_PATH_LENGTH = 2048

export const isPathRefusal = (value: string | PathRefusal): value is PathRefusal => typeof value !== 'string'

// Allocated once: a refusal is a constant, so even refusing costs nothing per call.
const refusal = (message: string): PathRefusal => Object.freeze({ refused: message })
const REFUSED = {
  slash: refusal(MSG.callPathSlash),
  tooLong: refusal(MSG.pathTooLong),
  fragment: refusal(MSG.pathFragment),
  slashEncoded: refusal(MSG.pathEncodedSlash),
  semicolon: refusal(MSG.pathSemicolon),
  dotSegment: refusal(MSG.pathDotSegment),
  emptySegment: refusal(MSG.pathEmptySegment),
  control: refusal(MSG.pathControlChar),
  badEncoding: refusal(MSG.pathBadEncoding),
  doubleEncoding: refusal(MSG.pathDoubleEncoding),
  lookAlike: refusal(MSG.pathLookAlike),
}

const ENCODED_SLASH = /%(2f|5c)/i
// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/
const LONE_SURROGATE = /\p{Cs}/u
const ESCAPE_LEFT = /%[0-9a-f]/i
const NON_ASCII = /[\u0080-\uffff]/
const SHAPING = /[^/\\?#%;]/g
/** A segment a service could take for `.` or `..`: dots, with nothing but whitespace besides. */
const DOTS_ONLY = /^\s*\.[.\s]*$/

/** The full reading, for a path the quick scan could not clear. */
function carefulReading(path: string): string | PathRefusal {
  if (path.includes('#')) return REFUSED.fragment
  if (path.includes('\\') || ENCODED_SLASH.test(path)) return REFUSED.slashEncoded
  // a request line cannot carry one, and URL parsers drop it at either end
  if (path.includes(' ')) return REFUSED.control
  if (LONE_SURROGATE.test(path)) return REFUSED.badEncoding
  let decoded: string
  try {
    // throws on a malformed escape and on bytes that are not UTF-8 (overlong forms included)
    decoded = decodeURIComponent(path)
  } catch {
    return REFUSED.badEncoding
  }
  const problem = structuralProblem(decoded)
  if (problem) return problem
  // A service that normalises Unicode must not find a separator, a dot segment or an escape we did not.
  if (NON_ASCII.test(decoded)) {
    const folded = decoded.normalize('NFKC')
    if (folded !== decoded && (punctuation(folded) !== punctuation(decoded) || structuralProblem(folded)))
      return REFUSED.lookAlike
  }
  return decoded
}

/** What makes a decoded path readable as another one, or null. */
function structuralProblem(decoded: string): PathRefusal | null {
  if (decoded.includes('\\')) return REFUSED.slashEncoded
  if (CONTROL.test(decoded)) return REFUSED.control
  if (decoded.includes(';')) return REFUSED.semicolon
  if (ESCAPE_LEFT.test(decoded)) return REFUSED.doubleEncoding
  const segments = decoded.split('/')
  // segments[0] is the empty text before the leading '/'; the last may be empty (a trailing '/')
  for (let i = 1; i < segments.length; i++) {
    const segment = segments[i]
    if (segment === '' && i < segments.length - 1) return REFUSED.emptySegment
    if (DOTS_ONLY.test(segment)) return REFUSED.dotSegment
  }
  return null
}

/** The characters that give a path its shape, in order: what NFKC must not add to or move. */
const punctuation = (text: string) => text.replace(SHAPING, '')
