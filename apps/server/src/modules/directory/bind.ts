import { EqualityFilter, AndFilter } from 'ldapts'
import type { DbOrTx } from '../../db/connection'
import type { SecretBox } from '../../lib/secret-box'
import { attr, boundClient } from './ldap-client'
import { readLdapSettings } from './settings'
import { Client } from 'ldapts'
import type { DirectoryBind } from '../../auth/directory-bind'

/**
 * Sign-in of a directory user (DESIGN.md §22): no password is kept here, the directory decides. The
 * settings' account finds the entry by the user's stored id (through renames and moves), then the
 * entry's DN is bound with the password given. Any failure is a wrong password to the caller, as an
 * unknown name is: what went wrong goes to the log only.
 */
export type { DirectoryBind }

export const directoryBind =
  (db: DbOrTx, box: SecretBox, onError: (err: Error) => void): DirectoryBind =>
  async (user, password) => {
    // an empty password would be an anonymous bind, which directories accept
    if (!password || !user.externalId) return false
    const settings = await readLdapSettings(db, box)
    if (!settings?.enabled) return false
    let dn: string | undefined
    try {
      const client = await boundClient(settings)
      try {
        const filter = new AndFilter({
          filters: [new EqualityFilter({ attribute: settings.attributes.nickName, value: user.nickName })],
        })
        const { searchEntries } = await client.search(settings.baseDn, {
          scope: 'sub',
          filter: `(&${settings.userFilter.trim()}${filter.filters[0].toString()})`,
          attributes: ['entryUUID', 'objectGUID'],
        })
        const entry = searchEntries.find((e) => {
          const guid = Array.isArray(e.objectGUID) ? e.objectGUID[0] : e.objectGUID
          const id = attr(e, 'entryUUID') || (Buffer.isBuffer(guid) ? guid.toString('hex') : '')
          return id === user.externalId
        })
        dn = entry?.dn
      } finally {
        await client.unbind().catch(() => {})
      }
    } catch (err) {
      onError(err as Error)
      return false
    }
    if (!dn) return false
    const client = new Client({
      url: settings.url.trim(),
      timeout: 10_000,
      connectTimeout: 10_000,
      strictDN: false,
    })
    try {
      if (settings.startTls) await client.startTLS({})
      await client.bind(dn, password)
      return true
    } catch {
      return false
    } finally {
      await client.unbind().catch(() => {})
    }
  }
