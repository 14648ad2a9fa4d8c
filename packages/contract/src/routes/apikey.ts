import { describeRoutes } from './route'
import type { apiKeySchemas } from './apikey.schemas'

/** API keys: services that cannot do OAuth call as a user (DESIGN.md §16). */
export const apiKeyRoutes = describeRoutes<typeof apiKeySchemas>()('apiKey', {
  list: { method: 'POST', path: '/apikey/list', summary: 'API 密钥列表', readOnly: true },
  insert: { method: 'POST', path: '/apikey/insert', summary: '新建 API 密钥' },
  revoke: { method: 'DELETE', path: '/apikey/revoke', summary: '吊销 API 密钥' },
})
