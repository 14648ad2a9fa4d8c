import { Tabs } from 'antd'
import { Outlet, useLocation, useNavigate } from 'react-router'

export interface RouteTab {
  /** The child route segment, e.g. 'userbaseinfo'. */
  key: string
  label: string
}

/**
 * A tabbed container whose tabs are nested routes (SPEC.md §2): the active tab follows the path,
 * choosing a tab navigates to it keeping the query (id, title, ...).
 */
export function RouteTabs({ base, tabs }: { base: string; tabs: readonly RouteTab[] }) {
  const location = useLocation()
  const navigate = useNavigate()
  const rest = location.pathname.startsWith(base + '/') ? location.pathname.slice(base.length + 1) : ''
  const active = tabs.find((t) => rest === t.key || rest.startsWith(t.key + '/'))?.key
  return (
    <div>
      <Tabs
        activeKey={active}
        items={tabs.map((t) => ({ key: t.key, label: t.label }))}
        onChange={(key) => navigate(`${base}/${key}${location.search}`)}
      />
      <Outlet />
    </div>
  )
}
