import { describeRoutes } from './route'
import type { settingsSchemas } from './settings.schemas'

/** The security settings (DESIGN.md §14). */
export const settingsRoutes = describeRoutes<typeof settingsSchemas>()('settings', {
  getSecurity: { method: 'GET', path: '/settings/security', summary: '安全设置' },
  putSecurity: { method: 'PUT', path: '/settings/security', summary: '修改安全设置' },
  // every signed-in user sets passwords of their own: the console's forms show and check the live rules
  getPasswordPolicy: {
    method: 'GET',
    path: '/settings/password-policy',
    summary: '密码规则',
    access: 'session',
  },
})
