import { render, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { createMemoryRouter, Outlet, RouterProvider, type RouteObject } from 'react-router'
import { Breadcrumbs, HOME_CRUMB, type ScreenHandle } from '../src/app/breadcrumbs'
import { routes } from '../src/app/routes'

/**
 * SPEC.md §2: every screen's breadcrumb starts with a home link to /body, and on every sub-screen
 * (a new, edit, info or view screen below a list) the list's crumb is a link back to that list.
 * Checked over the whole route table: a screen added later is checked too.
 */

/** Every screen of the table with its full path (redirects and the catch-all left out). */
function screens(table: RouteObject[], parent = ''): { path: string; route: RouteObject }[] {
  const found: { path: string; route: RouteObject }[] = []
  for (const route of table) {
    const path = route.path ? (route.path.startsWith('/') ? route.path : `${parent}/${route.path}`) : parent
    if (route.path && route.path !== '*' && !route.index) found.push({ path, route })
    if (route.children) found.push(...screens(route.children, path))
  }
  return found
}

/** The route table with every screen replaced by its outlet, under a frame that shows the breadcrumb. */
function crumbsOnly(table: RouteObject[]): RouteObject[] {
  return table.map((route) => {
    const { element: _element, children, ...rest } = route as RouteObject & { children?: RouteObject[] }
    return (
      route.index
        ? { index: true, element: null }
        : { ...rest, element: <Outlet />, ...(children ? { children: crumbsOnly(children) } : {}) }
    ) as RouteObject
  })
}

const table: RouteObject[] = [
  {
    element: (
      <>
        <Breadcrumbs />
        <Outlet />
      </>
    ),
    children: crumbsOnly(routes.find((r) => !r.path)!.children!),
  },
]

function renderCrumbs(url: string) {
  const router = createMemoryRouter(table, { initialEntries: [url] })
  render(<RouterProvider router={router} />)
  return within(screen.getByTestId('breadcrumb'))
}

const all = screens(routes)
/** The lists: top-level screens whose breadcrumb is a single crumb with a path. */
const lists = all.filter(({ path, route }) => {
  const crumbs = (route.handle as ScreenHandle | undefined)?.crumbs
  return path.split('/').length === 2 && Array.isArray(crumbs) && crumbs.length === 1 && !!crumbs[0].path
})
/** The sub-screens: every screen whose path lies below a list's. */
const subScreens = all.filter(({ path }) => lists.some((list) => path.startsWith(`${list.path}/`)))

describe('breadcrumbs over the route table (SPEC.md §2)', () => {
  it('finds the lists and their sub-screens', () => {
    expect(lists.map((l) => l.path)).toEqual(
      expect.arrayContaining([
        '/usermanage',
        '/rolemanage',
        '/usergroupmanage',
        '/orgmanage',
        '/stationmanage',
      ]),
    )
    expect(subScreens.map((s) => s.path)).toEqual(
      expect.arrayContaining([
        '/usermanage/adduser',
        '/usermanage/userinfo',
        '/usermanage/userinfo/userbaseinfo',
        '/rolemanage/roleinfo',
        '/rolemanage/addrole',
        '/usergroupmanage/addusergroup',
        '/usergroupmanage/usergroupinfo',
        '/orgmanage/orgaddform',
        '/orgmanage/editform/orgbaseinfo',
        '/stationmanage/addstation',
        '/stationmanage/editstation',
        '/stationmanage/viewstation',
        '/positionmanage/positioninfo/roleform',
        '/adminrolemanage/adminroleadd',
        '/adminrolemanage/adminroleinfo',
      ]),
    )
  })

  for (const { path } of subScreens) {
    it(`${path}: home, then a link back to its list`, () => {
      const list = lists.find((l) => path.startsWith(`${l.path}/`))!
      const listTitle = ((list.route.handle as ScreenHandle).crumbs as { title: string }[])[0].title
      const crumbs = renderCrumbs(`${path}?id=1&title=某条记录`)
      expect(crumbs.getByRole('link', { name: HOME_CRUMB })).toHaveAttribute('href', '/body')
      expect(crumbs.getByRole('link', { name: listTitle })).toHaveAttribute('href', list.path)
    })
  }

  for (const { path, route } of lists) {
    it(`${path}: the list itself ends in plain text`, () => {
      const title = ((route.handle as ScreenHandle).crumbs as { title: string }[])[0].title
      const crumbs = renderCrumbs(path)
      expect(crumbs.getByText(title).closest('a')).toBeNull()
    })
  }
})
