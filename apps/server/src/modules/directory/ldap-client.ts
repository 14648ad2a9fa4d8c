import { Client, InvalidCredentialsError, NoSuchObjectError, type Entry } from 'ldapts'
import { DIRECTORY_MSG } from '@amg/contract'
import { AppError, badRequest } from '../../lib/errors'
import type { LdapSettings } from './settings'

/** Talking to the directory (DESIGN.md §22) with ldapts: connect, bind, paged search, and its refusals in Chinese. */

const TIMEOUT_MS = 10_000
/** Entries per page of a search (RFC 2696 paged results): below the usual server size limit of 500/1000. */
export const PAGE_SIZE = 500

/** The directory's refusal as a 400 with a Chinese reason (what the administrator can act on). */
export function directoryError(err: unknown): AppError {
  if (err instanceof AppError) return err
  if (err instanceof InvalidCredentialsError) return badRequest(DIRECTORY_MSG.bindRefused)
  if (err instanceof NoSuchObjectError) return badRequest(DIRECTORY_MSG.baseNotFound)
  const e = err as NodeJS.ErrnoException
  const code = e?.code
  if (code === 'ECONNREFUSED') return badRequest(DIRECTORY_MSG.unreachable('连接被拒绝'))
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return badRequest(DIRECTORY_MSG.unreachable('主机名无法解析'))
  if (code === 'ETIMEDOUT' || /timeout/i.test(e?.message ?? ''))
    return badRequest(DIRECTORY_MSG.unreachable('连接超时'))
  if (code === 'ECONNRESET' || code === 'EHOSTUNREACH' || code === 'ENETUNREACH')
    return badRequest(DIRECTORY_MSG.unreachable(code))
  return badRequest(DIRECTORY_MSG.searchFailed(e?.message?.slice(0, 200) || '未知错误'))
}

/** A client connected and bound with the settings' account; closed by the caller (`unbind`). */
export async function boundClient(
  s: Pick<LdapSettings, 'url' | 'bindDn' | 'bindPassword' | 'startTls'>,
): Promise<Client> {
  const client = new Client({
    url: s.url.trim(),
    timeout: TIMEOUT_MS,
    connectTimeout: TIMEOUT_MS,
    strictDN: false,
  })
  try {
    if (s.startTls) await client.startTLS({})
    // an empty password would be an anonymous bind that "succeeds": refused here as the directory would
    if (!s.bindPassword) throw badRequest(DIRECTORY_MSG.bindRefused)
    await client.bind(s.bindDn.trim(), s.bindPassword)
    return client
  } catch (err) {
    await client.unbind().catch(() => {})
    throw directoryError(err)
  }
}

/** Every entry under `baseDn` matching `filter`, page by page. */
export async function searchAll(
  client: Client,
  baseDn: string,
  filter: string,
  attributes: string[],
): Promise<Entry[]> {
  const entries: Entry[] = []
  try {
    const pages = client.searchPaginated(baseDn.trim(), {
      scope: 'sub',
      filter: filter.trim(),
      attributes,
      paged: { pageSize: PAGE_SIZE },
    })
    for await (const page of pages) entries.push(...page.searchEntries)
  } catch (err) {
    throw directoryError(err)
  }
  return entries
}

/** A directory attribute's first value as text ('' when absent). */
export function attr(entry: Entry, name: string): string {
  if (!name) return ''
  const key = Object.keys(entry).find((k) => k.toLowerCase() === name.toLowerCase())
  const value = key === undefined ? undefined : entry[key]
  const first = Array.isArray(value) ? value[0] : value
  if (first === undefined) return ''
  return (Buffer.isBuffer(first) ? first.toString('utf8') : String(first)).trim()
}

/** All of an attribute's values as text. */
export function attrs(entry: Entry, name: string): string[] {
  const key = Object.keys(entry).find((k) => k.toLowerCase() === name.toLowerCase())
  const value = key === undefined ? undefined : entry[key]
  if (value === undefined) return []
  return (Array.isArray(value) ? value : [value]).map((v) =>
    Buffer.isBuffer(v) ? v.toString('utf8') : String(v),
  )
}

/** POST /settings/ldap/test: bind, then count what the filters find. */
export async function testConnection(s: LdapSettings): Promise<{ ok: true; users: number; groups: number }> {
  const client = await boundClient(s)
  try {
    const users = await searchAll(client, s.baseDn, s.userFilter, ['1.1'])
    const groups = await searchAll(client, s.baseDn, s.groupFilter, ['1.1'])
    return { ok: true, users: users.length, groups: groups.length }
  } finally {
    await client.unbind().catch(() => {})
  }
}
