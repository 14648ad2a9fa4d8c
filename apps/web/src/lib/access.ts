import { isPathAllowed } from '@amg/contract'

/** One entry of the side menu definition (app/menu.ts). */
export interface MenuItemDef {
  key: string
  label: string
  /** Show flag: false hides the entry whatever the access rights. */
  show: boolean
  /** The item's own index path. */
  path?: string
  /** Panel area id and view name: the item then routes to /{viewArea}-{uiview}. */
  viewArea?: string
  uiview?: string
  /** An external address, opened in a new tab. */
  link?: string
  icon?: string
  children?: MenuItemDef[]
}

/** Paths every signed-in user may open whatever their rights. */
export const ALWAYS_ALLOWED = ['/body', '/404', '/personal', '/myaccess']

/** True when the access list permits the path (SPEC.md §5 path matching; '/body' always). */
export function canAccess(auths: readonly string[], path: string): boolean {
  return ALWAYS_ALLOWED.includes(path) || isPathAllowed(auths, path)
}

/**
 * SPEC.md §2 side menu: /{viewArea}-{uiview} when both are given, otherwise the item's index
 * path, and /404 when neither exists.
 */
export function menuItemRoute(item: Pick<MenuItemDef, 'viewArea' | 'uiview' | 'path'>): string {
  if (item.viewArea && item.uiview) return `/${item.viewArea}-${item.uiview}`
  if (item.path) return item.path
  return '/404'
}

/**
 * SPEC.md §5 menu visibility: an item or submenu shows only if its show flag is true and the auths
 * list permits its path; a submenu shows only if at least one child is permitted; when the auth flag
 * is false, every item shows regardless.
 */
export function filterMenu(
  items: readonly MenuItemDef[],
  auths: readonly string[],
  authOn: boolean,
): MenuItemDef[] {
  if (!authOn)
    return items.map((item) => ({ ...item, children: item.children ? [...item.children] : undefined }))
  const result: MenuItemDef[] = []
  for (const item of items) {
    if (!item.show) continue
    if (item.children && item.children.length > 0) {
      const children = filterMenu(item.children, auths, authOn)
      if (children.length === 0) continue
      if (item.path && !canAccess(auths, item.path)) continue
      result.push({ ...item, children })
      continue
    }
    if (item.link) {
      result.push({ ...item })
      continue
    }
    if (!canAccess(auths, menuItemRoute(item))) continue
    result.push({ ...item })
  }
  return result
}

export type MenuAction =
  { kind: 'open-tab'; url: string } | { kind: 'log'; path: string } | { kind: 'navigate'; to: string }

/**
 * What choosing a menu item does (SPEC.md §2): a link opens in a new tab; '/external-link' is only
 * logged; otherwise the route is followed (for an item with a view area and view, /{viewArea}-{uiview}:
 * no screen declares panel areas, so that route is where the view is shown).
 */
export function menuItemAction(item: MenuItemDef): MenuAction {
  if (item.link) return { kind: 'open-tab', url: item.link }
  if (item.path === '/external-link') return { kind: 'log', path: item.path }
  return { kind: 'navigate', to: menuItemRoute(item) }
}
