import { describeRoutes } from './route'
import type { sessionSchemas } from './session.schemas'

/** Signing in and out, and the signed-in user's own account. */
export const sessionRoutes = describeRoutes<typeof sessionSchemas>()('session', {
  login: { method: 'POST', path: '/login', summary: '登录', access: 'public' },
  loginMfa: { method: 'POST', path: '/login/mfa', summary: '两步验证登录', access: 'public' },
  logout: { method: 'POST', path: '/logout', summary: '退出登录', access: 'public' },
  current: { method: 'GET', path: '/user/current', summary: '当前用户', access: 'session' },
  changePassword: { method: 'PUT', path: '/user/password', summary: '修改自己的密码', access: 'session' },
})
