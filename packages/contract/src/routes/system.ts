import { describeRoutes } from './route'
import type { systemSchemas } from './system.schemas'

/** What the server says about itself: before anyone signs in, and the home page's figures. */
export const systemRoutes = describeRoutes<typeof systemSchemas>()('system', {
  health: { method: 'GET', path: '/health', summary: '健康检查', access: 'public' },
  config: { method: 'GET', path: '/config', summary: '控制台运行参数', access: 'public' },
  // any signed-in user: the answer holds only the figures of the lists the caller may call
  overview: { method: 'GET', path: '/system/overview', summary: '首页概览', access: 'session' },
})
