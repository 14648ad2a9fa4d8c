import { Menu, type MenuProps } from 'antd'
import { useMemo, useState } from 'react'
import { useLocation, useNavigate } from 'react-router'
import { filterMenu, menuItemAction, type MenuItemDef } from '../lib/access'
import { useSession } from '../lib/session-store'
import { MENU, MENU_MODE } from './menu'
import { menuIcon } from './menu-icons'

type AntItem = Required<MenuProps>['items'][number]

function toAntItems(items: MenuItemDef[], top: boolean): AntItem[] {
  return items.map((item) =>
    item.children
      ? {
          key: item.key,
          label: item.label,
          icon: menuIcon(item.icon),
          children: toAntItems(item.children, false),
        }
      : { key: item.key, label: item.label, icon: top ? menuIcon(item.icon) : undefined, title: item.label },
  )
}

function flatten(items: MenuItemDef[]): MenuItemDef[] {
  return items.flatMap((i) => (i.children ? flatten(i.children) : [i]))
}

/** The entry whose path is the longest prefix of the current path (segment-wise). */
export function selectedMenuKey(items: MenuItemDef[], pathname: string): string | undefined {
  let best: MenuItemDef | undefined
  for (const item of flatten(items)) {
    if (!item.path) continue
    if (pathname === item.path || pathname.startsWith(item.path + '/')) {
      if (!best || item.path.length > best.path!.length) best = item
    }
  }
  return best?.key
}

/**
 * The side menu: the one definition filtered by the user's access list; vertical by default,
 * collapsed by default (icons with tooltips/pop-ups show the labels); submenus open on click
 * instead of hover (so they do not close on hover-out) when the device is 'mobile'.
 */
export function SideMenu({
  collapsed = false,
  onNavigate,
}: {
  collapsed?: boolean
  /** after a screen is chosen (the phone's drawer closes) */
  onNavigate?: () => void
}) {
  const auths = useSession((s) => s.auths)
  const authOn = useSession((s) => s.userAuth)
  const device = useSession((s) => s.device)
  const navigate = useNavigate()
  const location = useLocation()
  const visible = useMemo(() => filterMenu(MENU, auths, authOn), [auths, authOn])
  const byKey = useMemo(() => new Map(flatten(visible).map((i) => [i.key, i])), [visible])
  // the same items while the access list stays the same: the menu does not rebuild them on every navigation
  const items = useMemo(() => toAntItems(visible, true), [visible])
  const selected = selectedMenuKey(visible, location.pathname)
  // Expanded: every submenu open by default. Collapsed: submenus are pop-ups, none open at first.
  const [inlineOpen, setInlineOpen] = useState<string[]>(() =>
    MENU.filter((i) => i.children).map((i) => i.key),
  )
  const [popupOpen, setPopupOpen] = useState<string[]>([])

  const onClick: MenuProps['onClick'] = ({ key }) => {
    const item = byKey.get(key)
    if (!item) return
    const action = menuItemAction(item)
    switch (action.kind) {
      case 'open-tab':
        window.open(action.url, '_blank', 'noopener')
        break
      case 'log':
        console.info('menu: external link', action.path)
        break
      case 'navigate':
        navigate(action.to)
        // close a pop-up submenu; an unfolded menu has none open, and is not rendered again for nothing
        setPopupOpen((open) => (open.length ? [] : open))
        onNavigate?.()
        break
    }
  }

  return (
    <Menu
      theme="dark"
      mode={MENU_MODE === 'horizontal' ? 'horizontal' : 'inline'}
      triggerSubMenuAction={device === 'mobile' ? 'click' : 'hover'}
      selectedKeys={selected ? [selected] : []}
      openKeys={collapsed ? popupOpen : inlineOpen}
      onOpenChange={collapsed ? setPopupOpen : setInlineOpen}
      items={items}
      onClick={onClick}
      data-testid="side-menu"
    />
  )
}
