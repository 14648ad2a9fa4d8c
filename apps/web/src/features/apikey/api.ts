import { routes, type ApiKeyInsertBody } from '@amg/contract'
import { request } from '../../lib/route-call'

export const API_KEY_LIST_KEY = ['apikey', 'list'] as const

/** A page of keys, newest first; `userId` narrows it to one user's keys. */
export const listApiKeys = (query: {
  userId?: number
  keyword?: string
  pageNum: number
  pageSize: number
}) => request(routes.apiKey.list, { body: query })

/** The new key's id and the key itself, which the server answers this once only. */
export const insertApiKey = (body: ApiKeyInsertBody) => request(routes.apiKey.insert, { body })

export const revokeApiKey = (id: number) => request(routes.apiKey.revoke, { query: { id } })
