import { Envelope, NullData } from '../schemas/common'
import { PasswordPolicyData, SecuritySettingsBody } from '../schemas/settings'
import { bindSchemas } from './route'
import { settingsRoutes } from './settings'

export const settingsSchemas = {
  getSecurity: { response: { 200: Envelope(SecuritySettingsBody) } },
  putSecurity: { body: SecuritySettingsBody, response: { 200: NullData } },
  getPasswordPolicy: { response: { 200: Envelope(PasswordPolicyData) } },
}

export const settingsApi = bindSchemas(settingsRoutes, settingsSchemas)
