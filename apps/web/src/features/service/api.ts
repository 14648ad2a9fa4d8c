import type {
  AuthTreeNode,
  PageResult,
  ServiceInsertBody,
  ServiceRow,
  ServiceUpdateBody,
} from '@amg/contract'
import { del, post, put } from '../../lib/http'

export const SERVICE_LIST_KEY = ['service', 'list'] as const

export interface ServiceListQuery {
  keyword?: string
  pageNum: number
  pageSize: number
}

/** POST /service/list: a page of services whose key or name contains the keyword. */
export const listServices = (query: ServiceListQuery) => post<PageResult<ServiceRow>>('/service/list', query)

/** POST /service/insert: the new service's id; without rootCode a new top-level node is made. */
export const insertService = (body: ServiceInsertBody) => post<number>('/service/insert', body)

/** PUT /service/update: only the name changes. */
export const updateService = (body: ServiceUpdateBody) => put<null>('/service/update', body)

/** DELETE /service/delete?id=: the service and its (empty) root node. */
export const deleteService = (id: number) => del<null>('/service/delete', { id })

/** POST /auth/tree: the top-level nodes a new service may take over as its root. */
export const fetchTopLevelNodes = async () =>
  (await post<AuthTreeNode[]>('/auth/tree', {})).map((n) => ({ code: n.code, chName: n.chName }))
