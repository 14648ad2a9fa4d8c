import { Breadcrumb } from 'antd'
import { Link, useLocation, useMatches } from 'react-router'
import { listUrl } from '../lib/list-memory'

/** A breadcrumb step after the home link; `path` makes it a link. */
export interface Crumb {
  title: string
  path?: string
}

/** Route handle: the breadcrumb trail of the screen (without the home link). */
export interface ScreenHandle {
  crumbs: Crumb[] | ((search: URLSearchParams) => Crumb[])
}

export const HOME_CRUMB = '首页'

/** Every screen's breadcrumb starts with a home link to /body (SPEC.md §2). */
export function Breadcrumbs() {
  const matches = useMatches()
  const location = useLocation()
  const handle = [...matches].reverse().find((m) => (m.handle as ScreenHandle | undefined)?.crumbs)
    ?.handle as ScreenHandle | undefined
  const search = new URLSearchParams(location.search)
  const trail = handle ? (typeof handle.crumbs === 'function' ? handle.crumbs(search) : handle.crumbs) : []
  const items = [
    { key: 'home', title: <Link to="/body">{HOME_CRUMB}</Link> },
    ...trail.map((c, i) => ({
      key: `${i}-${c.title}`,
      // a list's crumb leads back to the list as it was left (its search, filters and page)
      title: c.path && i < trail.length - 1 ? <Link to={listUrl(c.path)}>{c.title}</Link> : c.title,
    })),
  ]
  return <Breadcrumb items={items} style={{ marginBottom: 16 }} data-testid="breadcrumb" />
}
