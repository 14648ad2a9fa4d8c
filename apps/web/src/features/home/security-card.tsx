import { Alert, Col, Row, Statistic, theme } from 'antd'
import { routes, type SystemOverview } from '@amg/contract'
import { useCanCall } from '../../lib/can-call'
import { OverviewCard } from './overview-card'

/** More super admins than this is worth a second look: each holds every right. */
export const MANY_SUPER_ADMINS = 3

/** What the super admin count calls for: one alone is a single point of failure, many are many keys. */
export function superAdminWarning(n: number | undefined): string | undefined {
  if (n === 1) return '只有 1 位超级管理员：他无法登录时，没有人能管理内置角色。建议再指定一位。'
  if (n !== undefined && n > MANY_SUPER_ADMINS)
    return `超级管理员有 ${n} 位：每位都拥有全部权限，建议只保留必要的几位。`
  return undefined
}

/** Security figures: users on the initial password, super admins, services; each to who may list them. */
export function SecurityCard({ overview, loading }: { overview?: SystemOverview; loading: boolean }) {
  const { token } = theme.useToken()
  const canUsers = useCanCall(routes.user.list)
  const canAdmins = useCanCall(routes.user.list, routes.role.list)
  const canServices = useCanCall(routes.service.list)
  const initial = overview?.users?.initialPassword
  const warning = canAdmins ? superAdminWarning(overview?.superAdmins) : undefined
  const warn = (on: boolean) => (on ? { content: { color: token.colorWarning } } : undefined)
  return (
    <OverviewCard title="安全提示" to="/usermanage" testId="overview-security">
      <Row gutter={[16, 16]}>
        {canUsers && (
          <Col xs={12} sm={8}>
            <Statistic
              title="仍用初始密码的用户"
              value={initial ?? '—'}
              loading={loading}
              styles={warn(!!initial)}
            />
          </Col>
        )}
        {canAdmins && (
          <Col xs={12} sm={8}>
            <Statistic
              title="超级管理员"
              value={overview?.superAdmins ?? '—'}
              loading={loading}
              styles={warn(!!warning)}
            />
          </Col>
        )}
        {canServices && (
          <Col xs={12} sm={8}>
            <Statistic title="服务" value={overview?.services ?? '—'} loading={loading} />
          </Col>
        )}
      </Row>
      {warning && <Alert type="warning" showIcon title={warning} style={{ marginTop: 16 }} />}
    </OverviewCard>
  )
}
