import { describeRoutes } from './route'
import type { passkeySchemas } from './passkey.schemas'

/**
 * Passkeys (DESIGN.md §23). Without `userId` the calls are about the caller's own passkeys; with
 * another user's id, the service checks the caller may write that user (power and reach).
 */
export const passkeyRoutes = describeRoutes<typeof passkeySchemas>()('passkey', {
  // a challenge asked for changes nothing about signing in: the verify call is the logged change
  registerOptions: {
    method: 'POST',
    path: '/user/passkey/register/options',
    summary: '获取通行密钥注册参数',
    access: 'session',
    readOnly: true,
  },
  registerVerify: {
    method: 'POST',
    path: '/user/passkey/register/verify',
    summary: '添加通行密钥',
    access: 'session',
  },
  list: {
    method: 'POST',
    path: '/user/passkey/list',
    summary: '通行密钥列表',
    access: 'session',
    readOnly: true,
  },
  update: { method: 'PUT', path: '/user/passkey/update', summary: '重命名通行密钥', access: 'session' },
  delete: { method: 'DELETE', path: '/user/passkey/delete', summary: '删除通行密钥', access: 'session' },
  loginOptions: {
    method: 'POST',
    path: '/login/passkey/options',
    summary: '获取通行密钥登录参数',
    access: 'public',
    readOnly: true,
  },
  loginVerify: { method: 'POST', path: '/login/passkey/verify', summary: '通行密钥登录', access: 'public' },
})
