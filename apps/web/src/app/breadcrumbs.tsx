import { Breadcrumb, ConfigProvider, theme } from 'antd'
import { Link, useLocation, useMatches, type UIMatch } from 'react-router'
import { listUrl } from '../lib/list-memory'
import { usePageTitle } from '../lib/page-title'

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

/** The trail of the deepest matched route that declares one. */
export function trailOf(matches: readonly UIMatch[], search: URLSearchParams): Crumb[] {
  const handle = [...matches].reverse().find((m) => (m.handle as ScreenHandle | undefined)?.crumbs)
    ?.handle as ScreenHandle | undefined
  if (!handle) return []
  return typeof handle.crumbs === 'function' ? handle.crumbs(search) : handle.crumbs
}

/**
 * Every screen's breadcrumb starts with a home link to /body (SPEC.md §2); on a sub-screen the
 * list's crumb is a link back to the list, as it was left (its search, filters and page). Links
 * wear the theme's link colour, so they read as links and not as the plain text of the last crumb.
 */
export function Breadcrumbs() {
  const matches = useMatches()
  const location = useLocation()
  const { token } = theme.useToken()
  const trail = trailOf(matches, new URLSearchParams(location.search))
  // the tab names the screen by its last crumb (the welcome page has none)
  usePageTitle(trail.at(-1)?.title)
  const items = [
    { key: 'home', title: <Link to="/body">{HOME_CRUMB}</Link> },
    ...trail.map((c, i) => ({
      key: `${i}-${c.title}`,
      title: c.path && i < trail.length - 1 ? <Link to={listUrl(c.path)}>{c.title}</Link> : c.title,
    })),
  ]
  return (
    <ConfigProvider
      theme={{
        components: { Breadcrumb: { linkColor: token.colorLink, linkHoverColor: token.colorLinkHover } },
      }}
    >
      <Breadcrumb items={items} style={{ marginBottom: 16 }} data-testid="breadcrumb" />
    </ConfigProvider>
  )
}
