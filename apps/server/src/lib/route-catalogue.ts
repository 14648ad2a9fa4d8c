/**
 * The server's own route table, collected as routes are registered. It drives
 * `GET /auth/get-all-back-end` (DESIGN.md §6), so the catalogue can never drift from the code.
 */
export interface CatalogueEntry {
  method: string
  url: string
  group: string
  summary: string
}

export class RouteCatalogue {
  readonly entries: CatalogueEntry[] = []

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
