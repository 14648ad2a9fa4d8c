import path from 'node:path'
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { canonicalPath, isPathRefusal, MAX_PATH_LENGTH } from '../src/canonical-path'
import { matchesPattern } from '../src/path-match'
import { MSG } from '../src/messages'

/** DESIGN.md §10a: one reading of a request URI, or a refusal. */

const refusedWith = (raw: string) => {
  const r = canonicalPath(raw)
  return isPathRefusal(r) ? r.refused : `accepted ${r}`
}

/** How a service behind a gateway reads the URI: its WHATWG URL parser, then one percent-decoding. */
const upstreamReading = (raw: string) => decodeURIComponent(new URL(raw, 'http://upstream').pathname)

describe('canonicalPath', () => {
  it('answers a plain path as it is, without the query string', () => {
    expect(canonicalPath('/user/list')).toBe('/user/list')
    expect(canonicalPath('/')).toBe('/')
    expect(canonicalPath('/public/')).toBe('/public/')
    expect(canonicalPath('/public/x?a=../../admin&b=%2f')).toBe('/public/x')
    expect(canonicalPath('/api/orders/7?')).toBe('/api/orders/7')
    expect(canonicalPath('/files/report.2024.pdf')).toBe('/files/report.2024.pdf')
    expect(canonicalPath('/.well-known/openid-configuration')).toBe('/.well-known/openid-configuration')
    expect(canonicalPath('/a/..b/c..')).toBe('/a/..b/c..')
  })

  it('percent-decodes exactly once', () => {
    expect(canonicalPath('/public/%E4%B8%AD%E6%96%87')).toBe('/public/中文')
    expect(canonicalPath('/public/%41b')).toBe('/public/Ab')
    expect(canonicalPath('/public/a%20b')).toBe('/public/a b')
    expect(canonicalPath('/public/100%25')).toBe('/public/100%')
    expect(canonicalPath('/public/a%3Fb')).toBe('/public/a?b')
    // raw Unicode text (a JSON path) reads as its UTF-8 escapes would
    expect(canonicalPath('/public/中文')).toBe('/public/中文')
  })

  it('refuses a relative or overlong path', () => {
    expect(refusedWith('public/x')).toBe(MSG.callPathSlash)
    expect(refusedWith('')).toBe(MSG.callPathSlash)
    expect(refusedWith('http://evil/public/x')).toBe(MSG.callPathSlash)
    expect(refusedWith(`/${'a'.repeat(MAX_PATH_LENGTH)}`)).toBe(MSG.pathTooLong)
    expect(canonicalPath(`/${'a'.repeat(MAX_PATH_LENGTH - 1)}?${'q'.repeat(3000)}`)).toBe(
      `/${'a'.repeat(MAX_PATH_LENGTH - 1)}`,
    )
  })

  it.each([
    // finding 1 of the review, one by one
    ['/public/..%2fadmin/secret.txt', MSG.pathEncodedSlash],
    ['/public/..%2Fadmin/secret.txt', MSG.pathEncodedSlash],
    ['/public/%2e%2e%2fadmin/secret.txt', MSG.pathEncodedSlash],
    ['/public/..\\admin/secret.txt', MSG.pathEncodedSlash],
    ['/public/..%5cadmin/secret.txt', MSG.pathEncodedSlash],
    ['/public/..%5Cadmin', MSG.pathEncodedSlash],
    ['/public\\..\\admin', MSG.pathEncodedSlash],
    ['/public/..;/admin/secret.txt', MSG.pathSemicolon],
    ['/public/x;jsessionid=1', MSG.pathSemicolon],
    ['/public/..%3b/admin', MSG.pathSemicolon],
    // dot segments in every spelling
    ['/public/../admin', MSG.pathDotSegment],
    ['/public/./x', MSG.pathDotSegment],
    ['/public/..', MSG.pathDotSegment],
    ['/public/.', MSG.pathDotSegment],
    ['/public/%2e%2e/admin', MSG.pathDotSegment],
    ['/public/%2E%2E/admin', MSG.pathDotSegment],
    ['/public/.%2E/admin', MSG.pathDotSegment],
    ['/public/%2e./admin', MSG.pathDotSegment],
    ['/public/%2e/x', MSG.pathDotSegment],
    ['/public/.../admin', MSG.pathDotSegment],
    ['/public/..%20/admin', MSG.pathDotSegment],
    ['/public/..%20%20/admin', MSG.pathDotSegment],
    ['/public/%20../admin', MSG.pathDotSegment],
    // overlong UTF-8 for '.' and '/' is not UTF-8 at all
    ['/public/%c0%ae%c0%ae/admin', MSG.pathBadEncoding],
    ['/public/..%c0%afadmin', MSG.pathBadEncoding],
    ['/public/%e0%80%ae', MSG.pathBadEncoding],
    // Unicode dots and slashes that NFKC folds
    ['/public/\uff0e\uff0e/admin', MSG.pathLookAlike],
    ['/public/%ef%bc%8e%ef%bc%8e/admin', MSG.pathLookAlike],
    ['/public/\u2025/admin', MSG.pathLookAlike],
    ['/public/\u2024\u2024/admin', MSG.pathLookAlike],
    ['/public/\ufe52/x', MSG.pathLookAlike],
    ['/public/..\uff0fadmin', MSG.pathLookAlike],
    ['/public/..\uff3cadmin', MSG.pathLookAlike],
    ['/public/x\uff1fy', MSG.pathLookAlike],
    ['/public/x\uff05\uff12\uff45', MSG.pathLookAlike],
    // control characters, raw or encoded
    ['/public/a%00b', MSG.pathControlChar],
    ['/public/a\u0000b', MSG.pathControlChar],
    ['/public/a%0ab', MSG.pathControlChar],
    ['/public/a\tb', MSG.pathControlChar],
    ['/public/a%7fb', MSG.pathControlChar],
    ['/public/a%c2%85b', MSG.pathControlChar],
    ['/public/a b', MSG.pathControlChar],
    ['/public/x ', MSG.pathControlChar],
    // malformed escapes and invalid UTF-8
    ['/public/%zz', MSG.pathBadEncoding],
    ['/public/%4', MSG.pathBadEncoding],
    ['/public/100%', MSG.pathBadEncoding],
    ['/public/%ff', MSG.pathBadEncoding],
    ['/public/%ed%a0%80', MSG.pathBadEncoding],
    ['/public/\ud800', MSG.pathBadEncoding],
    // double encoding
    ['/public/%252e%252e/admin', MSG.pathDoubleEncoding],
    ['/public/%252fadmin', MSG.pathDoubleEncoding],
    ['/public/%25%32%65', MSG.pathDoubleEncoding],
    ['/public/100%25a', MSG.pathDoubleEncoding],
    // empty segments
    ['//admin', MSG.pathEmptySegment],
    ['/public//x', MSG.pathEmptySegment],
    ['/public///', MSG.pathEmptySegment],
    // where the path ends would be a matter of opinion
    ['/public/a#/../../admin', MSG.pathFragment],
    ['/public/a#b', MSG.pathFragment],
  ])('refuses %s', (raw, message) => {
    expect(refusedWith(raw)).toBe(message)
  })

  it('answers the same constant for a refusal (nothing allocated per call)', () => {
    expect(canonicalPath('/a//b')).toBe(canonicalPath('/c//d'))
  })

  it('answers the very string it was given on the common safe path', () => {
    const raw = ['/api', 'orders', String(Date.now())].join('/')
    expect(canonicalPath(raw)).toBe(raw)
  })
})

/** Pieces an attacker combines; each alone or together may change how a service reads the path. */
const TRICKY = [
  '%2f',
  '%2F',
  '%5c',
  '%5C',
  '\\',
  ';',
  '%3b',
  '.',
  '..',
  '%2e',
  '%2E',
  '%252e',
  '%25',
  '%',
  '%c0%ae',
  '%c0%af',
  '%00',
  '%0a',
  '\t',
  '//',
  '/',
  '\uff0e',
  '\u2024',
  '\u2025',
  '%ef%bc%8e',
  '\uff0f',
  '#',
  '?',
  '%3f',
  '%23',
  ' ',
  '%20',
  '中',
  '%e4%b8%ad',
  'a',
  'b',
  '-',
  '~',
  '%41',
  'admin',
]
const trickyUri = fc.array(fc.constantFrom(...TRICKY), { maxLength: 12 }).map((parts) => parts.join(''))

describe('canonicalPath, properties', () => {
  it('an accepted path is exactly what a WHATWG service reads, and nothing normalises it further', () => {
    fc.assert(
      fc.property(trickyUri, (tail) => {
        const raw = `/public/${tail}`
        const r = canonicalPath(raw)
        if (isPathRefusal(r)) return
        expect(upstreamReading(raw)).toBe(r)
        // no dot segment, no '//': a service resolving or merging changes nothing
        expect(path.posix.normalize(r)).toBe(r)
        expect(path.posix.normalize(r.normalize('NFKC'))).toBe(r.normalize('NFKC'))
        // eslint-disable-next-line no-control-regex -- control characters are what must not be there
        expect(r).not.toMatch(/[\\;\u0000-\u001f\u007f-\u009f]|%[0-9a-f]/i)
        expect(matchesPattern('/public/**', r)).toBe(true)
        // written again as a URI (each segment encoded), it reads the same
        expect(canonicalPath(r.split('/').map(encodeURIComponent).join('/'))).toBe(r)
      }),
      { numRuns: 3000 },
    )
  })

  it('a path of ordinary segments is accepted as it is', () => {
    const segment = fc.stringMatching(/^[A-Za-z0-9_~.-]{1,12}$/).filter((s) => !/^\.+$/.test(s))
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 8 }), fc.boolean(), (segments, trailingSlash) => {
        const p = `/${segments.join('/')}${trailingSlash && segments.length ? '/' : ''}`
        expect(canonicalPath(p)).toBe(p)
        expect(canonicalPath(`${p}?q=1`)).toBe(p)
      }),
    )
  })

  it('an escape of an ordinary character reads as the character itself', () => {
    const segment = fc.stringMatching(/^[A-Za-z0-9_~-]{1,12}$/)
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 6 }), (segments) => {
        const plain = `/${segments.join('/')}`
        const escaped = `/${segments
          .map((s) => [...s].map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join(''))
          .join('/')}`
        expect(canonicalPath(escaped)).toBe(plain)
      }),
    )
  })
})
