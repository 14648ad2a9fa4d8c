import { isIP } from 'node:net'

/**
 * The IPv4 address an IPv6 address carries, for the webhook target guard (DESIGN.md §11, §17): a
 * packet to such an address can reach the IPv4 address inside it (the host's own dual stack, a
 * NAT64 or SIIT translator, a 6to4 or Teredo relay), so the address is judged by the one it embeds.
 */

/** The eight 16-bit groups of a valid IPv6 address in any spelling (compressed, dotted tail, any case). */
export function ipv6Groups(address: string): number[] | undefined {
  if (isIP(address) !== 6 || address.includes('%')) return undefined
  let text = address
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text)
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number)
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`
  }
  const groups = (part: string) => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)))
  const [head, tail] = text.split('::')
  if (tail === undefined) return groups(head)
  const [before, after] = [groups(head), groups(tail)]
  return [...before, ...new Array<number>(8 - before.length - after.length).fill(0), ...after]
}

const dottedQuad = (hi: number, lo: number) => [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.')
const zero = (groups: number[]) => groups.every((g) => g === 0)

/**
 * The IPv4 address embedded in these groups, if they are one of the forms that embed one:
 * IPv4-mapped `::ffff:0:0/96`, SIIT's IPv4-translated `::ffff:0:0:0/96`, IPv4-compatible `::/96`
 * (`::` and `::1` are 0.0.0.0 and 0.0.0.1, refused as "this network"), NAT64's well-known
 * `64:ff9b::/96` and local-use `64:ff9b:1::/96` (the rest of `64:ff9b:1::/48` is blocked outright:
 * a translator there may use another layout), 6to4 `2002::/16` (bits 16–47) and Teredo `2001::/32`
 * (the client: the last 32 bits inverted).
 */
function embeddedIn(g: number[]): string | undefined {
  const last = dottedQuad(g[6], g[7])
  if (zero(g.slice(0, 5)) && g[5] === 0xffff) return last
  if (zero(g.slice(0, 4)) && g[4] === 0xffff && g[5] === 0) return last
  if (zero(g.slice(0, 6))) return last
  if (g[0] === 0x64 && g[1] === 0xff9b && zero(g.slice(2, 6))) return last
  if (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 1 && zero(g.slice(3, 6))) return last
  if (g[0] === 0x2002) return dottedQuad(g[1], g[2])
  if (g[0] === 0x2001 && g[1] === 0) return dottedQuad(g[6] ^ 0xffff, g[7] ^ 0xffff)
  return undefined
}

/** The IPv4 address a bare IPv6 address (no brackets, no zone) embeds, if it embeds one. */
export function embeddedV4(address: string): string | undefined {
  const groups = ipv6Groups(address)
  return groups && embeddedIn(groups)
}
