import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import type dns from 'node:dns'
import {
  checkTarget,
  guardedLookup,
  isPrivateAddress,
  PrivateTargetError,
} from '../src/modules/webhook/target'
import { deriveEvents } from '../src/events/derive'

/**
 * The webhook target guard (DESIGN.md §17): an address inside a loopback, private, link-local or
 * metadata range is refused whatever its spelling (IPv4, IPv4-mapped IPv6 in either notation), and
 * an address outside every such range is not.
 */
const octet = fc.integer({ min: 0, max: 255 })
const v4 = (a: number, b: number, c: number, d: number) => `${a}.${b}.${c}.${d}`
const mappedHex = (a: number, b: number, c: number, d: number) =>
  `::ffff:${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`

/** The ranges refused: first octet, and the second octet's range where the first alone does not decide. */
const PRIVATE_V4: [number, [number, number]][] = [
  [0, [0, 255]],
  [10, [0, 255]],
  [100, [64, 127]],
  [127, [0, 255]],
  [169, [254, 254]],
  [172, [16, 31]],
  [192, [168, 168]],
  [198, [18, 19]],
]

const isListed = (a: number, b: number, c: number) =>
  PRIVATE_V4.some(([first, [lo, hi]]) => a === first && b >= lo && b <= hi) ||
  (a === 192 && b === 0 && c === 0) ||
  a >= 224

describe('isPrivateAddress', () => {
  it('refuses every address in a private range, in every spelling', () => {
    fc.assert(
      fc.property(fc.constantFrom(...PRIVATE_V4), octet, octet, octet, ([a, [lo, hi]], r, c, d) => {
        const b = lo + (r % (hi - lo + 1))
        expect(isPrivateAddress(v4(a, b, c, d))).toBe(true)
        expect(isPrivateAddress(`::ffff:${v4(a, b, c, d)}`)).toBe(true)
        expect(isPrivateAddress(mappedHex(a, b, c, d))).toBe(true)
      }),
    )
  })

  it('lets through every address outside them, and says the same in every spelling', () => {
    fc.assert(
      fc.property(octet, octet, octet, octet, (a, b, c, d) => {
        const expected = isListed(a, b, c)
        expect(isPrivateAddress(v4(a, b, c, d))).toBe(expected)
        expect(isPrivateAddress(mappedHex(a, b, c, d))).toBe(expected)
      }),
    )
  })

  it('knows the IPv6 ranges: loopback, unique local (AWS metadata), link-local, multicast', () => {
    for (const address of ['::1', '::', 'fd00:ec2::254', 'fc00::1', 'fe80::1', 'ff02::1', '[::1]'])
      expect(isPrivateAddress(address), address).toBe(true)
    for (const address of ['2606:4700:4700::1111', '2001:db8::1', '93.184.216.34', '8.8.8.8'])
      expect(isPrivateAddress(address), address).toBe(false)
    expect(isPrivateAddress('not an address')).toBe(true)
  })
})

/**
 * IPv6 addresses that embed an IPv4 address (DESIGN.md §11, second review) are judged by the address
 * they embed. Each form builds the eight groups from the IPv4 address as a 32-bit number and from
 * free bits (the 6to4 subnet and interface, the Teredo server, flags and port) that must not matter.
 */
const FORMS: Record<string, (v: number, free: number[]) => number[]> = {
  'IPv4-mapped ::ffff:0:0/96': (v) => [0, 0, 0, 0, 0, 0xffff, v >>> 16, v & 0xffff],
  'IPv4-compatible ::/96': (v) => [0, 0, 0, 0, 0, 0, v >>> 16, v & 0xffff],
  'SIIT ::ffff:0:0:0/96': (v) => [0, 0, 0, 0, 0xffff, 0, v >>> 16, v & 0xffff],
  'NAT64 64:ff9b::/96': (v) => [0x64, 0xff9b, 0, 0, 0, 0, v >>> 16, v & 0xffff],
  'NAT64 local-use 64:ff9b:1::/48': (v) => [0x64, 0xff9b, 1, 0, 0, 0, v >>> 16, v & 0xffff],
  '6to4 2002::/16': (v, free) => [0x2002, v >>> 16, v & 0xffff, ...free.slice(0, 5)],
  'Teredo 2001::/32': (v, free) => [
    0x2001,
    0,
    ...free.slice(0, 4),
    (v >>> 16) ^ 0xffff,
    (v & 0xffff) ^ 0xffff,
  ],
}

const hex = (g: number) => g.toString(16)
/** Every way to write the groups: expanded, compressed, with a dotted tail, upper case, bracketed, with a zone. */
function spellings(groups: number[]): string[] {
  const expanded = groups.map((g) => hex(g).padStart(4, '0')).join(':')
  // the URL standard's serialiser compresses (an implementation other than the guard's parser)
  const compress = (gs: number[]) => new URL(`http://[${gs.map(hex).join(':')}]`).hostname.slice(1, -1)
  const compressed = compress(groups)
  // the first six groups compressed as they would be with a non-zero tail, then the tail dotted
  const tail = [groups[6] >> 8, groups[6] & 255, groups[7] >> 8, groups[7] & 255].join('.')
  const dotted = compress([...groups.slice(0, 6), 1, 1]).replace(/1:1$/, tail)
  const dottedExpanded = `${expanded.split(':').slice(0, 6).join(':')}:${tail}`
  const plain = [expanded, compressed, dotted, dottedExpanded]
  return [...plain, ...plain.map((a) => a.toUpperCase()), ...plain.map((a) => `[${a}]`), `${compressed}%eth0`]
}

const number = (a: number, b: number, c: number, d: number) => ((a << 24) | (b << 16) | (c << 8) | d) >>> 0
const quad = (v: number) => [v >>> 24, (v >>> 16) & 255, (v >>> 8) & 255, v & 255].join('.')

describe('IPv6 addresses embedding an IPv4 address', () => {
  const refused = ['127.0.0.1', '127.255.255.254', '10.1.2.3', '172.16.0.1', '172.31.255.255']
  refused.push('192.168.1.1', '169.254.169.254', '0.0.0.0', '0.1.2.3')
  const allowed = ['8.8.8.8', '93.184.216.34', '172.32.0.1', '1.1.1.1', '11.0.0.1']

  it('refuses loopback, private, link-local and "this network" inside every form, in every spelling', () => {
    for (const [form, embed] of Object.entries(FORMS))
      for (const v4 of refused) {
        const [a, b, c, d] = v4.split('.').map(Number)
        for (const address of spellings(embed(number(a, b, c, d), [0x4136, 0xe378, 0x8000, 0x63bf, 1])))
          expect(isPrivateAddress(address), `${form} ${v4}: ${address}`).toBe(true)
      }
  })

  it('lets through a public address inside every form, in every spelling', () => {
    for (const [form, embed] of Object.entries(FORMS))
      for (const v4 of allowed) {
        const [a, b, c, d] = v4.split('.').map(Number)
        for (const address of spellings(embed(number(a, b, c, d), [0x4136, 0xe378, 0x8000, 0x63bf, 1])))
          expect(isPrivateAddress(address), `${form} ${v4}: ${address}`).toBe(false)
      }
  })

  it('refuses the spellings of loopback the review found', () => {
    for (const address of ['[::7f00:1]', '[2002:7f00:1::]', '[::ffff:0:7f00:1]', '::ffff:127.0.0.1'])
      expect(isPrivateAddress(address), address).toBe(true)
    // Teredo's client is inverted: 127.0.0.1 is 80ff:fffe
    expect(isPrivateAddress('2001:0:4136:e378:8000:63bf:80ff:fffe')).toBe(true)
    expect(isPrivateAddress('2001:0:4136:e378:8000:63bf:f7f7:f7f7')).toBe(false)
    // the rest of NAT64's local-use prefix cannot be read (another layout): refused
    expect(isPrivateAddress('64:ff9b:1:7f00:0:100::')).toBe(true)
    // not Teredo: the documentation prefix 2001:db8::/32
    expect(isPrivateAddress('2001:db8::7f00:1')).toBe(false)
  })

  it('gives the embedded address the verdict the address itself gets, for any address and form', () => {
    const free = fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: 5, maxLength: 5 })
    const anyV4 = fc.oneof(
      fc.integer({ min: 0, max: 0xffffffff }),
      fc.tuple(octet, octet, octet, octet).map(([a, b, c, d]) => number(a, b, c, d)),
    )
    fc.assert(
      fc.property(fc.constantFrom(...Object.keys(FORMS)), anyV4, free, (form, v, bits) => {
        const expected = isPrivateAddress(quad(v))
        for (const address of spellings(FORMS[form](v, bits)))
          expect(isPrivateAddress(address), `${form} ${quad(v)}: ${address}`).toBe(expected)
      }),
      { numRuns: 500 },
    )
  })
})

/** A resolver answering these addresses for any name, as DNS could. */
const answering =
  (...addresses: string[]) =>
  async (): Promise<dns.LookupAddress[]> =>
    addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))
const callbackResolver = (...addresses: string[]) =>
  ((_host: string, _options: unknown, callback: (err: null, a: dns.LookupAddress[]) => void) =>
    void answering(...addresses)().then((a) => callback(null, a))) as unknown as typeof dns.lookup

/** What the connection's lookup answers: the error's code, or the addresses. */
const connectLookup = (allowPrivate: boolean, ...answers: string[]) =>
  new Promise<string | unknown>((resolve) =>
    guardedLookup(allowPrivate, callbackResolver(...answers))('hooks.example', { all: true }, (err, a) =>
      resolve(err ? err.code : a),
    ),
  )

describe('DNS answers that embed an IPv4 address', () => {
  const hook = new URL('https://hooks.example/x')

  it('are refused when saved and when connecting', async () => {
    for (const answer of ['2002:7f00:1::', '::ffff:0:a00:1', '64:ff9b::a9fe:a9fe', '::7f00:1']) {
      await expect(checkTarget(hook, false, answering('93.184.216.34', answer)), answer).rejects.toThrow(
        PrivateTargetError,
      )
      expect(await connectLookup(false, '93.184.216.34', answer), answer).toBe('EPRIVATE')
    }
  })

  it('are let through when public, or when WEBHOOK_ALLOW_PRIVATE allows private targets', async () => {
    await expect(checkTarget(hook, false, answering('2002:808:808::1'))).resolves.toBeUndefined()
    expect(await connectLookup(false, '2002:808:808::1')).toEqual([{ address: '2002:808:808::1', family: 6 }])
    await expect(checkTarget(hook, true, answering('2002:7f00:1::'))).resolves.toBeUndefined()
    expect(await connectLookup(true, '2002:7f00:1::')).toEqual([{ address: '2002:7f00:1::', family: 6 }])
  })
})

describe('deriveEvents', () => {
  it('ignores an update that changed only bookkeeping columns', () => {
    const { drafts } = deriveEvents([
      { table: 'users', op: 'UPDATE', old: { id: 1, update_time: 'a' }, new: { id: 1, update_time: 'b' } },
    ])
    expect(drafts).toEqual([])
  })

  it('names the fields an update changed, and a link by both ids', () => {
    const { drafts, touch } = deriveEvents([
      { table: 'users', op: 'UPDATE', old: { id: 3, status: 1 }, new: { id: 3, status: 2 } },
      { table: 'user_group_roles', op: 'DELETE', old: { group_id: 4, role_id: 5 } },
    ])
    expect(drafts).toEqual([
      { type: 'user.updated', payload: { id: 3, fields: ['status'] } },
      { type: 'link.unlinked', payload: { link: 'group-role', groupId: 4, roleId: 5 } },
    ])
    expect([...touch.userIds]).toEqual([3])
    expect([...touch.groupIds]).toEqual([4])
  })
})
