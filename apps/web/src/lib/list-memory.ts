/**
 * Where each list was left (its search, filters and page), for the way back to it: the edit and view
 * screens' 返回 and the breadcrumb. Apart from lib/list-state.ts because the breadcrumb is part of
 * the shell's first download and needs only this.
 */

/** Per browser tab (session storage): another tab keeps its own lists; a reload keeps them. */
const STORAGE_KEY = 'amg.lists'

function readRemembered(): Record<string, string> {
  try {
    const value = JSON.parse(window.sessionStorage.getItem(STORAGE_KEY) ?? '{}') as unknown
    return value && typeof value === 'object' ? (value as Record<string, string>) : {}
  } catch {
    return {}
  }
}

export function rememberList(path: string, search: string) {
  try {
    window.sessionStorage.setItem(STORAGE_KEY, JSON.stringify({ ...readRemembered(), [path]: search }))
  } catch {
    // storage unavailable: the list then opens in its first state
  }
}

/** The list at `path` as it was last left in this tab (search, filters, page), or its first state. */
export function listUrl(path: string): string {
  const search = readRemembered()[path]
  return search ? `${path}${search.startsWith('?') ? search : `?${search}`}` : path
}
