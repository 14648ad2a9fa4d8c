import type { RouteOptions } from 'fastify'
import { API_PREFIX } from '@amg/contract'
import { routeMethods } from './route-hooks'

/**
 * The server's own route table, collected as routes are registered, each with the group and summary
 * of its description in the contract (lib/route.ts). It drives `GET /auth/get-all-back-end`
 * (DESIGN.md §6), so the catalogue can never drift from the code.
 */
export interface CatalogueEntry {
  method: string
  url: string
  group: string
  summary: string
}

export class RouteCatalogue {
  readonly entries: CatalogueEntry[] = []

  /** A registered API route (from an onRoute hook), once per method; HEAD is Fastify's own. */
  addRoute(route: RouteOptions) {
    const description = route.config?.route
    for (const method of routeMethods(route)) {
      if (method === 'HEAD') continue
      this.add({
        method,
        url: route.url.slice(API_PREFIX.length),
        group: description?.group ?? '其他',
        summary: description?.summary ?? route.url,
      })
    }
  }

  add(entry: CatalogueEntry) {
    if (!this.entries.some((e) => e.method === entry.method && e.url === entry.url)) this.entries.push(entry)
  }

  /** urlMap keyed by method, then group name, holding `{ apiOperationValue, urls }` (SPEC.md §3). */
  urlMap(): Record<string, Record<string, { apiOperationValue: string; urls: string[] }[]>> {
    const map: Record<string, Record<string, { apiOperationValue: string; urls: string[] }[]>> = {}
    for (const e of this.entries) {
      const byGroup = (map[e.method] ??= {})
      ;(byGroup[e.group] ??= []).push({ apiOperationValue: e.summary, urls: [e.url] })
    }
    return map
  }
}
