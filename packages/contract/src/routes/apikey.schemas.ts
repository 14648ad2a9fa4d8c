import { Envelope, NullData } from '../schemas/common'
import { ApiKeyCreated, ApiKeyIdQuery, ApiKeyInsertBody, ApiKeyListBody, ApiKeyPage } from '../schemas/apikey'
import { bindSchemas } from './route'
import { apiKeyRoutes } from './apikey'

export const apiKeySchemas = {
  list: { body: ApiKeyListBody, response: { 200: Envelope(ApiKeyPage) } },
  insert: { body: ApiKeyInsertBody, response: { 200: Envelope(ApiKeyCreated) } },
  revoke: { querystring: ApiKeyIdQuery, response: { 200: NullData } },
}

export const apiKeyApi = bindSchemas(apiKeyRoutes, apiKeySchemas)
