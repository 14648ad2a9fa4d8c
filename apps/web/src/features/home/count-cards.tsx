import { Col, Space, Statistic } from 'antd'
import { routes, type SystemOverview } from '@amg/contract'
import { useCanCall } from '../../lib/can-call'
import { OverviewCard } from './overview-card'

/** A count as the server answered it; '—' while loading or if the server left it out. */
const value = (n: number | undefined) => n ?? '—'

/** A card per resource: how many there are, for each list the user may call. */
export function CountCards({ overview, loading }: { overview?: SystemOverview; loading: boolean }) {
  const cards = [
    { key: 'roles', title: '角色', to: '/rolemanage' },
    { key: 'userGroups', title: '用户组', to: '/usergroupmanage' },
    { key: 'organizations', title: '部门', to: '/orgmanage' },
    { key: 'stations', title: '职位', to: '/stationmanage' },
    { key: 'positions', title: '岗位', to: '/positionmanage' },
  ] as const
  const canUsers = useCanCall(routes.user.list)
  const allowed = {
    userGroups: useCanCall(routes.userGroup.list),
    roles: useCanCall(routes.role.list),
    organizations: useCanCall(routes.org.tree),
    stations: useCanCall(routes.station.list),
    positions: useCanCall(routes.position.list),
  }
  const col = { xs: 24, sm: 12, lg: 8, xxl: 4 }
  return (
    <>
      {canUsers && (
        <Col {...col}>
          <OverviewCard title="用户" to="/usermanage" testId="overview-users">
            <Space size="large">
              <Statistic title="正常" value={value(overview?.users?.active)} loading={loading} />
              <Statistic title="冻结" value={value(overview?.users?.frozen)} loading={loading} />
            </Space>
          </OverviewCard>
        </Col>
      )}
      {cards
        .filter((c) => allowed[c.key])
        .map((c) => (
          <Col key={c.key} {...col}>
            <OverviewCard title={c.title} to={c.to} testId={`overview-${c.key}`}>
              <Statistic title="总数" value={value(overview?.[c.key])} loading={loading} />
            </OverviewCard>
          </Col>
        ))}
    </>
  )
}
