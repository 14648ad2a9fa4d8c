import { apiKeyRoutes } from './apikey'
import { authRoutes } from './auth'
import { authzRoutes } from './authz'
import { fileRoutes } from './file'
import { monitorRoutes } from './monitor'
import { orgRoutes } from './org'
import { positionRoutes } from './position'
import { roleRoutes } from './role'
import { serviceRoutes } from './service'
import { sessionRoutes } from './session'
import { stationRoutes } from './station'
import { systemRoutes } from './system'
import { userGroupRoutes } from './user-group'
import { userRoutes } from './user'
import { webhookRoutes } from './webhook'
import { settingsRoutes } from './settings'
import { mfaRoutes } from './mfa'
import { importRoutes } from './import'
import { reviewRoutes, usageRoutes } from './review'
import { accessRequestRoutes, eligibilityRoutes } from './access-request'
import { directoryRoutes } from './directory'
import { passkeyRoutes } from './passkey'
import { groupExportRoutes, positionExportRoutes, roleExportRoutes, stationExportRoutes } from './list-export'

// signing in needs only these two; the console's first download takes them alone
export { sessionRoutes, systemRoutes }

/** Every route of the API, by resource (schema-free: the console imports these). */
export const routes = {
  system: systemRoutes,
  session: sessionRoutes,
  file: fileRoutes,
  user: userRoutes,
  org: orgRoutes,
  station: stationRoutes,
  userGroup: userGroupRoutes,
  position: positionRoutes,
  role: roleRoutes,
  auth: authRoutes,
  monitor: monitorRoutes,
  authz: authzRoutes,
  service: serviceRoutes,
  webhook: webhookRoutes,
  settings: settingsRoutes,
  mfa: mfaRoutes,
  import: importRoutes,
  roleExport: roleExportRoutes,
  groupExport: groupExportRoutes,
  stationExport: stationExportRoutes,
  positionExport: positionExportRoutes,
  apiKey: apiKeyRoutes,
  review: reviewRoutes,
  usage: usageRoutes,
  eligibility: eligibilityRoutes,
  accessRequest: accessRequestRoutes,
  directory: directoryRoutes,
  passkey: passkeyRoutes,
}
