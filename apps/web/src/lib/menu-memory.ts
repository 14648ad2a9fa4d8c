/** Local storage key: whether this browser last folded the side menu or opened it. */
export const MENU_COLLAPSED_STORAGE_KEY = 'amg.menu-collapsed'

/** What this browser chose last (by the menu button), else `fallback`. */
export function readMenuCollapsed(fallback: boolean): boolean {
  try {
    const stored = window.localStorage.getItem(MENU_COLLAPSED_STORAGE_KEY)
    return stored === null ? fallback : stored === 'true'
  } catch {
    return fallback
  }
}

export function writeMenuCollapsed(collapsed: boolean) {
  try {
    window.localStorage.setItem(MENU_COLLAPSED_STORAGE_KEY, String(collapsed))
  } catch {
    // storage unavailable (private mode): the choice lasts for this page only
  }
}
