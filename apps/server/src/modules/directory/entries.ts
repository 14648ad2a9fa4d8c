import { DIRECTORY_MSG, normalizeName } from '@amg/contract'
import { attr, attrs, boundClient, searchAll } from './ldap-client'
import type { LdapSettings } from './settings'

/** The directory as the sync reads it (DESIGN.md §22): users with their department path, groups with members. */

export interface DirectoryUser {
  dn: string
  /** entryUUID (OpenLDAP, RFC 4530) or objectGUID (Active Directory): stays through renames and moves */
  externalId: string
  nickName: string
  realName: string | null
  mobile: string | null
  /** department names below the root department, top first */
  path: string[]
}

export interface DirectoryGroup {
  dn: string
  externalId: string
  name: string
  /** members' DNs, folded (lower case, no spaces after commas) */
  members: string[]
}

export interface Directory {
  users: DirectoryUser[]
  groups: DirectoryGroup[]
  /** entries that cannot become a user, with the reason */
  failed: { dn: string; name: string; reason: string }[]
}

/** A DN as compared: lower case, no spaces around the separators. */
export const foldDn = (dn: string) =>
  dn
    .split(/(?<!\\),/)
    .map((rdn) =>
      rdn
        .trim()
        .toLowerCase()
        .replace(/\s*=\s*/, '='),
    )
    .join(',')

/** An RDN's value, its escapes undone (`\,` and `\2C` alike). */
const rdnValue = (rdn: string) =>
  rdn
    .slice(rdn.indexOf('=') + 1)
    .trim()
    .replace(/\\([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)))
    .replace(/\\(.)/g, '$1')

/** The OU names between the entry and the base DN, top first. */
export function ouPath(dn: string, baseDn: string): string[] {
  const rdns = dn.split(/(?<!\\),/)
  const baseLength = baseDn.split(/(?<!\\),/).length
  const between = rdns.slice(1, Math.max(1, rdns.length - baseLength))
  return between
    .filter((rdn) => rdn.trim().toLowerCase().startsWith('ou='))
    .map(rdnValue)
    .reverse()
}

const idOf = (entry: Parameters<typeof attr>[0]) => {
  const uuid = attr(entry, 'entryUUID')
  if (uuid) return uuid
  const guid = entry.objectGUID
  const first = Array.isArray(guid) ? guid[0] : guid
  return Buffer.isBuffer(first) ? first.toString('hex') : ''
}

/** Reads the users and groups the settings' filters find, page by page. */
export async function readDirectory(s: LdapSettings): Promise<Directory> {
  const client = await boundClient(s)
  try {
    const a = s.attributes
    const userAttributes = ['entryUUID', 'objectGUID', a.nickName, a.realName, a.mobile, a.department ?? '']
    const userEntries = await searchAll(client, s.baseDn, s.userFilter, userAttributes.filter(Boolean))
    const groupEntries = await searchAll(client, s.baseDn, s.groupFilter, [
      'entryUUID',
      'objectGUID',
      'cn',
      'member',
      'uniqueMember',
    ])
    const out: Directory = { users: [], groups: [], failed: [] }
    for (const e of userEntries) {
      const nickName = normalizeName(attr(e, a.nickName))
      if (!nickName) {
        out.failed.push({ dn: e.dn, name: e.dn, reason: DIRECTORY_MSG.entryNoName(a.nickName) })
        continue
      }
      const path =
        s.departmentFrom === 'attribute'
          ? attr(e, a.department ?? '')
              .split('/')
              .map((p) => normalizeName(p.trim()))
              .filter(Boolean)
          : ouPath(e.dn, s.baseDn).map((p) => normalizeName(p))
      out.users.push({
        dn: e.dn,
        externalId: idOf(e) || foldDn(e.dn),
        nickName,
        realName: attr(e, a.realName) || null,
        mobile: attr(e, a.mobile) || null,
        path,
      })
    }
    for (const e of groupEntries) {
      const name = normalizeName(attr(e, 'cn'))
      if (!name) continue
      const members = [...attrs(e, 'member'), ...attrs(e, 'uniqueMember')].map(foldDn)
      out.groups.push({ dn: e.dn, externalId: idOf(e) || foldDn(e.dn), name, members })
    }
    return out
  } finally {
    await client.unbind().catch(() => {})
  }
}
