import { HomeOverview } from './lazy-pages'
import { Title } from './title'

export const WELCOME_HEADING = '欢迎使用角色权限管理系统'

/**
 * The home page at /body: the welcome heading (SPEC.md §1), then what the user may look at —
 * counts, their own recent operations, security figures (features/home).
 */
export function WelcomePage() {
  return (
    <div>
      <div style={{ padding: '24px 0 8px', textAlign: 'center' }}>
        <Title level={2}>{WELCOME_HEADING}</Title>
      </div>
      <HomeOverview />
    </div>
  )
}
