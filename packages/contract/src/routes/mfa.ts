import { describeRoutes } from './route'
import type { mfaSchemas } from './mfa.schemas'

/** Two-step sign-in (DESIGN.md §14): one's own enrolment, and an administrator's reset. */
export const mfaRoutes = describeRoutes<typeof mfaSchemas>()('mfa', {
  // a key not yet confirmed changes nothing about signing in: no log row each time the bind dialog
  // opens (readOnly); 绑定两步验证, which confirms it, is the logged change
  setup: {
    method: 'POST',
    path: '/user/mfa/setup',
    summary: '获取两步验证密钥',
    access: 'session',
    readOnly: true,
  },
  enable: { method: 'POST', path: '/user/mfa/enable', summary: '绑定两步验证', access: 'session' },
  disable: { method: 'POST', path: '/user/mfa/disable', summary: '解绑两步验证', access: 'session' },
  reset: { method: 'DELETE', path: '/user/mfa/reset', summary: '重置两步验证' },
})
