import { routes } from '@amg/contract'
import { request } from '../lib/route-call'
import type { SearchOption } from './search-select'

/**
 * What a SearchSelect of users or roles offers for the typed name: the server's name lists, so only
 * the users and roles within the caller's reach, the first 20 users that match.
 */
export const userNameOptions = async (nickName: string): Promise<SearchOption[]> =>
  (
    (
      await request(routes.user.nameList, {
        body: { nickName: nickName || undefined, pageNum: 1, pageSize: 20 },
      })
    ).list ?? []
  ).map((u) => ({ value: u.id, label: u.nickName }))

export const roleNameOptions = async (roleName: string): Promise<SearchOption[]> =>
  (await request(routes.role.nameList, { body: { roleName: roleName || undefined } })).map((r) => ({
    value: r.id,
    label: r.roleName,
  }))
