import { BlockList, isIP } from 'node:net'
import dns from 'node:dns'
import { WEBHOOK_MSG } from '@amg/contract'
import { badRequest } from '../../lib/errors'
import { embeddedV4 } from './embedded-v4'

/**
 * Where a webhook may point (DESIGN.md §17). A webhook makes this server send requests wherever an
 * administrator says: without a guard, to its own loopback services, the private network or the
 * cloud's metadata service (server-side request forgery). Checked when an endpoint is saved and
 * again at every connection (DNS can change): the connection uses the very addresses checked.
 */

const blocked = new BlockList()
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, the cloud metadata service (169.254.169.254)
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const)
  blocked.addSubnet(net, prefix, 'ipv4')
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7], // unique local, AWS's metadata service (fd00:ec2::254)
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
  ['100::', 64], // discard
  // NAT64's local-use prefix beyond the one layout whose embedded address is read (embedded-v4.ts)
  ['64:ff9b:1::', 48],
] as const)
  blocked.addSubnet(net, prefix, 'ipv6')

/** Whether an address is loopback, private, link-local, metadata or otherwise not the public internet. */
export function isPrivateAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '')
  const family = isIP(bare)
  if (family === 0) return true
  if (family === 6) {
    const v4 = embeddedV4(bare)
    if (v4) return isPrivateAddress(v4)
    return blocked.check(bare, 'ipv6')
  }
  return blocked.check(bare, 'ipv4')
}

/** Names that mean this machine or the metadata service whatever DNS says. */
const PRIVATE_NAMES = /^(localhost|.*\.localhost|metadata|metadata\.google\.internal|instance-data)\.?$/i

/** The endpoint's address as a URL: http or https, a host, nothing else; else 400 with the reason. */
export function parseWebhookUrl(text: string): URL {
  let url: URL
  try {
    url = new URL(text.trim())
  } catch {
    throw badRequest(WEBHOOK_MSG.urlInvalid)
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname)
    throw badRequest(WEBHOOK_MSG.urlInvalid)
  return url
}

/** The host as a bare name or address (an IPv6 literal without its brackets). */
const hostOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, '')

/** A target the guard refuses (its message is the one shown to administrators). */
export class PrivateTargetError extends Error {
  constructor() {
    super(WEBHOOK_MSG.urlPrivate)
  }
}

/**
 * Whether the URL's host may be sent to, as far as can be told without connecting: an address
 * literal or a private name is judged at once; a name is resolved, and refused when any address it
 * has is private. A name that does not resolve now is let through: the connection checks it again.
 */
export async function checkTarget(
  url: URL,
  allowPrivate: boolean,
  resolve: (host: string) => Promise<dns.LookupAddress[]> = (host) =>
    dns.promises.lookup(host, { all: true }),
): Promise<void> {
  if (allowPrivate) return
  const host = hostOf(url)
  if (PRIVATE_NAMES.test(host)) throw new PrivateTargetError()
  if (isIP(host)) {
    if (isPrivateAddress(host)) throw new PrivateTargetError()
    return
  }
  let addresses: dns.LookupAddress[]
  try {
    addresses = await resolve(host)
  } catch {
    return
  }
  if (addresses.some((a) => isPrivateAddress(a.address))) throw new PrivateTargetError()
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | dns.LookupAddress[],
  family?: number,
) => void

/**
 * The `lookup` of a webhook's connection: resolves the name and refuses it when any of its addresses
 * is private, so the address connected to is one that was checked (no window for DNS to change).
 */
export const guardedLookup =
  (allowPrivate: boolean, resolve: typeof dns.lookup = dns.lookup) =>
  (hostname: string, options: dns.LookupOptions, callback: LookupCallback): void => {
    resolve(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, [])
      if (!allowPrivate && addresses.some((a) => isPrivateAddress(a.address)))
        return callback(Object.assign(new PrivateTargetError(), { code: 'EPRIVATE' }), [])
      if (options.all) return callback(null, addresses)
      const [first] = addresses
      callback(null, first.address, first.family)
    })
  }
