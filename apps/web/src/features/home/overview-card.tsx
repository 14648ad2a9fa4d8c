import { Card } from 'antd'
import type { ReactNode } from 'react'
import { Link } from 'react-router'
import { canAccess } from '../../lib/access'
import { useSession } from '../../lib/session-store'

/**
 * One card of the home page: its title links to its screen when the user may open that screen (the
 * front-end paths they hold), so nobody is sent to a screen that would refuse them.
 */
export function OverviewCard({
  title,
  to,
  testId,
  children,
}: {
  title: string
  to: string
  testId: string
  children: ReactNode
}) {
  const mayOpen = useSession((s) => !s.userAuth || canAccess(s.auths, to))
  return (
    <Card
      size="small"
      title={title}
      data-testid={testId}
      extra={mayOpen ? <Link to={to}>查看</Link> : undefined}
      style={{ height: '100%' }}
    >
      {children}
    </Card>
  )
}
