import { Envelope } from '../schemas/common'
import { ConsoleConfig, Health } from '../schemas/session'
import { SystemOverview } from '../schemas/overview'
import { bindSchemas } from './route'
import { systemRoutes } from './system'

export const systemSchemas = {
  health: { security: [], response: { 200: Envelope(Health), 503: Envelope(Health) } },
  config: { security: [], response: { 200: Envelope(ConsoleConfig) } },
  overview: { response: { 200: Envelope(SystemOverview) } },
}

export const systemApi = bindSchemas(systemRoutes, systemSchemas)
