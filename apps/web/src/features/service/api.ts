import { routes, type OidcClientBody, type ServiceInsertBody, type ServiceUpdateBody } from '@amg/contract'
import { request } from '../../lib/route-call'

export const SERVICE_LIST_KEY = ['service', 'list'] as const

export interface ServiceListQuery {
  keyword?: string
  pageNum: number
  pageSize: number
}

/** A page of services whose key or name contains the keyword. */
export const listServices = (query: ServiceListQuery) => request(routes.service.list, { body: query })

/** The new service's id; without rootCode a new top-level node is made. */
export const insertService = (body: ServiceInsertBody) => request(routes.service.insert, { body })

/** Only the name changes. */
export const updateService = (body: ServiceUpdateBody) => request(routes.service.update, { body })

/** The service and its (empty) root node. */
export const deleteService = (id: number) => request(routes.service.delete, { query: { id } })

/** The top-level nodes a new service may take over as its root. */
export const fetchTopLevelNodes = async () =>
  (await request(routes.auth.tree, { body: {} })).map((n) => ({ code: n.code, chName: n.chName }))

/** DESIGN.md §16: a service's single sign-on settings (null while sign-on is off). */
export const fetchOidc = (serviceId: number) => request(routes.service.oidcDetail, { query: { serviceId } })

/** Saves the settings; the secret comes back only when one was made. */
export const saveOidc = (body: OidcClientBody) => request(routes.service.oidcSave, { body })

/** A new secret, shown once. */
export const rotateOidcSecret = (serviceId: number) =>
  request(routes.service.oidcRotateSecret, { body: { serviceId } })

export const turnOidcOff = (serviceId: number) => request(routes.service.oidcOff, { query: { serviceId } })
