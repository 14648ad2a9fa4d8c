import type { Point, Size } from '../../components/tree-actions'

/**
 * SPEC.md §2: the permission tree's right-click menu is shifted when the click x is over 1800 or
 * y over 700 — it then opens to the left of / above the pointer, by its own size, so it stays
 * on screen.
 */
export const MENU_SHIFT_X = 1800
export const MENU_SHIFT_Y = 700

/** Where the menu's top-left corner goes for a click at `click` (page coordinates). */
export function contextMenuPosition(click: Point, menu: Size): { left: number; top: number } {
  return {
    left: click.x > MENU_SHIFT_X ? click.x - menu.width : click.x,
    top: click.y > MENU_SHIFT_Y ? click.y - menu.height : click.y,
  }
}
