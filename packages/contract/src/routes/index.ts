import { roleRoutes } from './role'
import { userRoutes } from './user'

/** Every route of the API, by resource (schema-free: the console imports these). */
export const routes = {
  user: userRoutes,
  role: roleRoutes,
}
