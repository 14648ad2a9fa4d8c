import { Envelope, NullData } from '../schemas/common'
import { SecuritySettingsBody } from '../schemas/settings'
import { bindSchemas } from './route'
import { settingsRoutes } from './settings'

export const settingsSchemas = {
  getSecurity: { response: { 200: Envelope(SecuritySettingsBody) } },
  putSecurity: { body: SecuritySettingsBody, response: { 200: NullData } },
}

export const settingsApi = bindSchemas(settingsRoutes, settingsSchemas)
