import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { isPrivateAddress } from '../src/modules/webhook/target'
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
