import { Col, Row } from 'antd'
import { routes } from '@amg/contract'
import { useCanCall } from '../../lib/can-call'
import { useOverview } from './api'
import { CountCards } from './count-cards'
import { RecentOperations } from './recent-operations'
import { SecurityCard } from './security-card'

/**
 * The home page's cards below the welcome heading: counts, the user's own recent operations and
 * security figures, each shown only to a user who may call the list behind it (the server answers
 * only those figures anyway). Cards stack on a phone.
 */
export function HomeOverview() {
  const canUsers = useCanCall(routes.user.list)
  const canRoles = useCanCall(routes.role.list)
  const canLog = useCanCall(routes.monitor.operationList)
  const canServices = useCanCall(routes.service.list)
  const { data, isPending } = useOverview()
  return (
    <Row gutter={[16, 16]} data-testid="home-overview">
      <CountCards overview={data} loading={isPending} />
      {canLog && (
        <Col xs={24} lg={12}>
          <RecentOperations operations={data?.recentOperations} />
        </Col>
      )}
      {(canUsers || canRoles || canServices) && (
        <Col xs={24} lg={12}>
          <SecurityCard overview={data} loading={isPending} />
        </Col>
      )}
    </Row>
  )
}
