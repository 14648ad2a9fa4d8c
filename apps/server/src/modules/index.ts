import type { FastifyPluginAsync } from 'fastify'
import { sessionRoutes } from './session/routes'
import { systemRoutes } from './system/routes'
import { fileRoutes } from './file/routes'
import { userRoutes } from './user/routes'
import { orgRoutes } from './org/routes'
import { stationRoutes } from './station/routes'
import { userGroupRoutes } from './user-group/routes'
import { positionRoutes } from './position/routes'
import { roleRoutes } from './role/routes'
import { permissionRoutes } from './permission/routes'
import { logRoutes } from './log/routes'
import { onlineRoutes } from './online/routes'
import { authzRoutes } from './authz/routes'
import { serviceRoutes } from './service/routes'
import { overviewRoutes } from './overview/routes'
import { webhookRoutes } from './webhook/routes'
import { settingsRoutes } from './settings/routes'
import { mfaRoutes } from './mfa/routes'
import { importRoutes } from './import/routes'
import { apiKeyRoutes } from './apikey/routes'
import { reviewRoutes } from './review/routes'
import { linkSweeper } from './links/sweeper'
import { accessRequestRoutes } from './access-request/routes'
import { directoryRoutes } from './directory/routes'
import { passkeyRoutes } from './passkey/routes'

/** Every API module, registered under /api behind the authorization hook. */
export const apiModules: FastifyPluginAsync[] = [
  systemRoutes,
  sessionRoutes,
  fileRoutes,
  userRoutes,
  orgRoutes,
  stationRoutes,
  userGroupRoutes,
  positionRoutes,
  roleRoutes,
  permissionRoutes,
  logRoutes,
  onlineRoutes,
  authzRoutes,
  serviceRoutes,
  overviewRoutes,
  webhookRoutes,
  settingsRoutes,
  mfaRoutes,
  importRoutes,
  apiKeyRoutes,
  reviewRoutes,
  linkSweeper,
  accessRequestRoutes,
  directoryRoutes,
  passkeyRoutes,
]
