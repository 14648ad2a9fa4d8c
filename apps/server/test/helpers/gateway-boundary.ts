import { expect, it } from 'vitest'
import fc from 'fast-check'
import { canonicalPath, isPathRefusal, matchesPattern } from '@amg/contract'
import type { GatewayBackends } from './gateway'
import { PUBLIC_TEXT, rawRequest, SECRET_TEXT } from './gateway-upstream'

/**
 * The trust boundary (DESIGN.md §10a), through a real gateway with its committed template: the
 * decision is made on exactly the path the service acts on, or the call is refused; the user's token
 * stops at the gateway. `ctx()` is read when each case runs (after the suite's beforeAll).
 */
export function trustBoundaryCases(ctx: () => { port: number; b: GatewayBackends }) {
  /** One raw request; what the upstream and this server saw of it. */
  async function send(target: string, headers: [string, string][]) {
    const { port, b } = ctx()
    const receivedBefore = b.received.length
    const askedBefore = b.asked.length
    const answer = await rawRequest(port, target, headers)
    return { answer, received: b.received.slice(receivedBefore), asked: b.asked.slice(askedBefore) }
  }

  const asPublicUser = (): [string, string][] => [['x-auth-token', ctx().b.publicUser.token]]

  /** Refused by the gateway or this server: a 4xx, and nothing reached the service. */
  const expectRefused = (r: Awaited<ReturnType<typeof send>>, what: string) => {
    expect(r.received, `${what} reached the service`).toEqual([])
    expect(r.answer.status, `${what}: ${r.answer.status}`).toBeGreaterThanOrEqual(400)
    expect(r.answer.status, `${what}: ${r.answer.status}`).toBeLessThan(500)
    expect(r.answer.body).not.toContain(SECRET_TEXT)
  }

  /** Every token string the service must never see, in any header. */
  const expectNoToken = (headers: Record<string, unknown>, tokens: string[]) => {
    const all = JSON.stringify(headers)
    for (const token of tokens) expect(all).not.toContain(token)
    expect(headers['x-auth-token']).toBeUndefined()
    expect(headers.authorization).toBeUndefined()
  }

  it('serves the public file to the user holding GET /public/** and refuses the secret one', async () => {
    const ok = await send('/public/readme.txt', asPublicUser())
    expect(ok.answer.status).toBe(200)
    expect(ok.answer.body).toContain(PUBLIC_TEXT)
    // an escape of an ordinary letter reads as the letter: decided and served as /public/readme.txt
    const escaped = await send('/%70ublic/readme.txt?x=1', asPublicUser())
    expect(escaped.answer.status).toBe(200)
    expect(escaped.answer.body).toContain(PUBLIC_TEXT)
    expectRefused(await send('/admin/secret.txt', asPublicUser()), '/admin/secret.txt')
  })

  it.each([
    '/public/..%2fadmin/secret.txt',
    '/public/..%2Fadmin/secret.txt',
    '/public/%2e%2e%2fadmin/secret.txt',
    '/public/%2e%2e/admin/secret.txt',
    '/public/.%2E/admin/secret.txt',
    '/public/..\\admin/secret.txt',
    '/public/..%5cadmin/secret.txt',
    '/public/..;/admin/secret.txt',
    '/public/%c0%ae%c0%ae/admin/secret.txt',
    '/public/..%c0%afadmin/secret.txt',
    '/public/%252e%252e/admin/secret.txt',
    '/public/%ef%bc%8e%ef%bc%8e/admin/secret.txt',
    '/public/\uff0e\uff0e/admin/secret.txt',
    '/public/../admin/secret.txt',
    '/public//../admin/secret.txt',
    '/public/a#/../../admin/secret.txt',
    '/public/%00/../admin/secret.txt',
  ])('never serves the secret file for %s', async (target) => {
    expectRefused(await send(target, asPublicUser()), target)
  })

  it('passes the client other cookies on, and none of the token carriers', async () => {
    const { b } = ctx()
    const token = b.publicUser.token
    const r = await send('/public/readme.txt', [
      ['x-auth-token', token],
      ['Authorization', `Bearer ${token}`],
      ['Cookie', `theme=dark; Authorization=${token}; lang=zh`],
      ['Cookie', 'sid=42'],
    ])
    expect(r.answer.status).toBe(200)
    expect(r.received).toHaveLength(1)
    const headers = r.received[0].headers
    expectNoToken(headers, [token])
    const cookies = String(headers.cookie)
      .split(';')
      .map((c) => c.trim())
      .filter(Boolean)
    expect(cookies).toEqual(['theme=dark', 'lang=zh', 'sid=42'])
  })

  it.each([
    ['the cookie alone', (tok: string) => [['Cookie', `Authorization=${tok}`]]],
    ['the cookie first', (tok: string) => [['Cookie', `Authorization=${tok}; theme=dark`]]],
    [
      'the cookie last, URL-encoded',
      (tok: string) => [['Cookie', `theme=dark;Authorization=Bearer%20${tok}`]],
    ],
    ['a Bearer header', (tok: string) => [['Authorization', `Bearer ${tok}`]]],
    ['x-auth-token', (tok: string) => [['X-Auth-Token', tok]]],
    [
      'another case and spacing of the name',
      (tok: string) => [
        ['x-auth-token', tok],
        ['Cookie', `theme=dark;\tAUTHORIZATION \t= ${tok} ; lang=zh`],
      ],
    ],
  ] as [string, (tok: string) => [string, string][]][])(
    'lets the user through without their token: %s',
    async (_, carriers) => {
      const token = ctx().b.publicUser.token
      const r = await send('/public/readme.txt', carriers(token))
      expect(r.answer.status).toBe(200)
      expect(r.answer.body).toContain(PUBLIC_TEXT)
      expect(r.received).toHaveLength(1)
      expectNoToken(r.received[0].headers, [token])
    },
  )

  it.each([
    [
      'two Authorization cookies',
      (tok: string) => [['Cookie', `Authorization=${tok}; authorization=${tok}`]],
    ],
    [
      'two in two Cookie headers',
      (tok: string) => [
        ['Cookie', `Authorization=${tok}`],
        ['Cookie', `a=1; Authorization=${tok}`],
      ],
    ],
    [
      'a name padded with a no-break space',
      (tok: string) => [
        ['x-auth-token', tok],
        ['Cookie', `a=1;\u00a0Authorization=${tok}`],
      ],
    ],
  ] as [string, (tok: string) => [string, string][]][])(
    'refuses a call with token cookies it cannot strip: %s',
    async (what, carriers) => {
      expectRefused(await send('/public/readme.txt', carriers(ctx().b.publicUser.token)), what)
    },
  )

  /** Pieces an attacker combines into a path; each alone or together may change how a service reads it. */
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
    '%c0%ae',
    '%c0%af',
    '%00',
    '//',
    '/',
    '/',
    '\uff0e',
    '\u2024',
    '%ef%bc%8e',
    '%e2%80%a5',
    '#',
    '%23',
    '?',
    '中',
    '%e4%b8%ad',
    'a',
    'b',
    '-',
    'admin',
    'secret.txt',
    'readme.txt',
  ]
  const tail = fc.array(fc.constantFrom(...TRICKY), { maxLength: 10 }).map((parts) => parts.join(''))

  it('is refused, or decided on exactly the path the service reads, under /public (property)', async () => {
    let passed = 0
    await fc.assert(
      fc.asyncProperty(tail, async (t) => {
        const target = `/public/${t}`
        const r = await send(target, asPublicUser())
        expect(r.answer.body).not.toContain(SECRET_TEXT)
        if (r.received.length === 0) {
          expectRefused(r, target)
          return
        }
        passed++
        expect(r.received).toHaveLength(1)
        expect(r.asked).toHaveLength(1)
        const decided = canonicalPath(r.asked[0])
        if (isPathRefusal(decided)) throw new Error(`${target}: let through on a refused path`)
        const read = decodeURIComponent(new URL(r.received[0].url, 'http://upstream').pathname)
        expect(read, target).toBe(decided)
        expect(matchesPattern('/public/**', read), target).toBe(true)
      }),
      { numRuns: 200 },
    )
    // the property says something only if calls do get through
    expect(passed).toBeGreaterThan(10)
  }, 60_000)

  /** Cookie pairs, some carrying the token under a name this server or a service might read. */
  const cookiePair = fc.oneof(
    fc.constantFrom('theme=dark', 'lang=zh', 'a=1', 'xAuthorization=1'),
    fc
      .tuple(
        fc.constantFrom(
          'Authorization',
          'authorization',
          'AUTHORIZATION',
          ' Authorization',
          'Authorization ',
          '\tAuthorization',
          '\u00a0Authorization',
        ),
        fc.constantFrom('', 'Bearer%20', '"'),
      )
      .map(([name, prefix]) => ({ name, prefix })),
  )
  const cookieHeaders = fc.array(
    fc.tuple(fc.array(cookiePair, { minLength: 1, maxLength: 4 }), fc.constantFrom('; ', ';', ', ', ';\t')),
    { minLength: 1, maxLength: 3 },
  )

  it('never passes the token on, however the cookies are written (property)', async () => {
    let passed = 0
    await fc.assert(
      fc.asyncProperty(cookieHeaders, fc.boolean(), async (headers, withHeaderToken) => {
        const token = ctx().b.publicUser.token
        const written: [string, string][] = headers.map(([pairs, separator]) => [
          'Cookie',
          pairs
            .map((p) =>
              typeof p === 'string' ? p : `${p.name}=${p.prefix}${token}${p.prefix === '"' ? '"' : ''}`,
            )
            .join(separator),
        ])
        if (withHeaderToken) written.push(['x-auth-token', token])
        const r = await send('/public/readme.txt', written)
        if (r.received.length === 0) {
          // no token this server reads (401), or cookies it refuses (400)
          expect([400, 401]).toContain(r.answer.status)
          return
        }
        passed++
        expect(r.answer.status).toBe(200)
        expectNoToken(r.received[0].headers, [token])
      }),
      { numRuns: 150 },
    )
    expect(passed).toBeGreaterThan(10)
  }, 60_000)

  it('answers a path it will not decide on with 400', async () => {
    const r = await send('/public/..%2fadmin/secret.txt', asPublicUser())
    expect(r.answer.status).toBe(400)
    expect(r.received).toEqual([])
    expect(r.asked).toEqual(['/public/..%2fadmin/secret.txt'])
  })
}
