import { describeRoutes } from './route'
import type { directorySchemas } from './directory.schemas'

/** Directory sync by LDAP (DESIGN.md §22): settings, connection test, sync runs. */
export const directoryRoutes = describeRoutes<typeof directorySchemas>()('directory', {
  getLdap: { method: 'GET', path: '/settings/ldap', summary: 'LDAP 设置' },
  putLdap: { method: 'PUT', path: '/settings/ldap', summary: '修改 LDAP 设置' },
  testLdap: { method: 'POST', path: '/settings/ldap/test', summary: '测试 LDAP 连接' },
  sync: { method: 'POST', path: '/directory/sync', summary: '目录同步' },
  runs: { method: 'GET', path: '/directory/runs', summary: '目录同步记录' },
})
