import { Title } from './title'

export const WELCOME_HEADING = '欢迎使用角色权限管理系统'

/** The placeholder view at /body: only the welcome heading (SPEC.md §1). */
export function WelcomePage() {
  return (
    <div style={{ padding: '64px 0', textAlign: 'center' }}>
      <Title level={2}>{WELCOME_HEADING}</Title>
    </div>
  )
}
