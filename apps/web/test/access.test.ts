import { describe, expect, it } from 'vitest'
import { canAccess, filterMenu, menuItemAction, menuItemRoute, type MenuItemDef } from '../src/lib/access'
import { MENU } from '../src/app/menu'

const item = (key: string, path: string, show = true): MenuItemDef => ({ key, label: key, path, show })

const menu: MenuItemDef[] = [
  item('home', '/body'),
  {
    key: 'access',
    label: '权限管理',
    show: true,
    children: [item('user', '/usermanage'), item('role', '/rolemanage'), item('hidden', '/secret', false)],
  },
  {
    key: 'org',
    label: '组织管理',
    show: true,
    children: [item('orgm', '/orgmanage'), item('station', '/stationmanage')],
  },
  { key: 'off', label: '隐藏的子菜单', show: false, children: [item('p', '/positionmanage')] },
]

const keys = (items: MenuItemDef[]): string[] =>
  items.flatMap((i) => [i.key, ...(i.children ? keys(i.children) : [])])

describe('menu visibility (SPEC.md §5)', () => {
  it('an item shows only if its path is permitted', () => {
    const visible = filterMenu(menu, ['/usermanage'], true)
    expect(keys(visible)).toEqual(['home', 'access', 'user'])
  })

  it('an item with the show flag off is hidden even when permitted', () => {
    expect(keys(filterMenu(menu, ['/**'], true))).not.toContain('hidden')
  })

  it('a submenu with the show flag off is hidden with its children', () => {
    expect(keys(filterMenu(menu, ['/**'], true))).not.toContain('off')
    expect(keys(filterMenu(menu, ['/**'], true))).not.toContain('p')
  })

  it('a submenu shows only if at least one child is permitted', () => {
    expect(keys(filterMenu(menu, ['/stationmanage'], true))).toEqual(['home', 'org', 'station'])
    expect(keys(filterMenu(menu, [], true))).toEqual(['home'])
  })

  it('patterns: prefix /** and lone /** (the contract matcher)', () => {
    expect(keys(filterMenu(menu, ['/position/**', '/body/**'], true))).toEqual(['home'])
    expect(keys(filterMenu(menu, ['/orgmanage/**'], true))).toEqual(['home', 'org', 'orgm'])
    expect(keys(filterMenu(menu, ['/orgmanage', '/rolemanage/**'], true))).toEqual([
      'home',
      'access',
      'role',
      'org',
      'orgm',
    ])
    expect(keys(filterMenu(menu, ['/**'], true))).toEqual([
      'home',
      'access',
      'user',
      'role',
      'org',
      'orgm',
      'station',
    ])
  })

  it('exact match only otherwise', () => {
    expect(keys(filterMenu(menu, ['/usermanag', '/usermanage/adduser'], true))).toEqual(['home'])
  })

  it('when the auth flag is false everything shows', () => {
    expect(keys(filterMenu(menu, [], false))).toEqual(keys(menu))
  })

  it('/body is always allowed for a signed-in user', () => {
    expect(canAccess([], '/body')).toBe(true)
    expect(canAccess([], '/usermanage')).toBe(false)
  })

  it('link items show without a path check', () => {
    const link: MenuItemDef = { key: 'doc', label: '文档', show: true, link: 'https://example.com' }
    expect(keys(filterMenu([link], [], true))).toEqual(['doc'])
  })

  it('the console menu definition: every page item of the seeded tree for the admin', () => {
    const all = keys(filterMenu(MENU, ['/**'], true))
    expect(all).toEqual(keys(MENU))
  })
})

describe('menu item route (SPEC.md §2 side menu)', () => {
  it('/{viewArea}-{uiview} when both are given', () => {
    expect(menuItemRoute({ viewArea: 'main', uiview: 'userlist', path: '/usermanage' })).toBe(
      '/main-userlist',
    )
  })
  it('its index path otherwise', () => {
    expect(menuItemRoute({ viewArea: 'main', path: '/usermanage' })).toBe('/usermanage')
    expect(menuItemRoute({ uiview: 'x', path: '/rolemanage' })).toBe('/rolemanage')
  })
  it('/404 when neither exists', () => {
    expect(menuItemRoute({})).toBe('/404')
    expect(menuItemRoute({ viewArea: 'main' })).toBe('/404')
  })
})

describe('menu item action', () => {
  it('a link opens a new tab', () => {
    expect(menuItemAction({ key: 'l', label: 'l', show: true, link: 'https://a.b' })).toEqual({
      kind: 'open-tab',
      url: 'https://a.b',
    })
  })
  it('/external-link is only logged', () => {
    expect(menuItemAction(item('e', '/external-link'))).toEqual({ kind: 'log', path: '/external-link' })
  })
  it('a view area and view navigates to /{viewArea}-{uiview}', () => {
    expect(menuItemAction({ key: 'v', label: 'v', show: true, viewArea: 'right', uiview: 'form' })).toEqual({
      kind: 'navigate',
      to: '/right-form',
    })
  })
  it('an index path navigates; neither goes to /404', () => {
    expect(menuItemAction(item('u', '/usermanage'))).toEqual({ kind: 'navigate', to: '/usermanage' })
    expect(menuItemAction({ key: 'n', label: 'n', show: true })).toEqual({ kind: 'navigate', to: '/404' })
  })
})
