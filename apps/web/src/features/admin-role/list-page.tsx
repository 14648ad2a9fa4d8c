import { RoleListScreen } from '../../components/role-screens'
import { ADMIN_ROLE_SCREENS } from './config'

/** /adminrolemanage: the super-admin and built-in roles, the super admin locked. */
export function AdminRoleListPage() {
  return <RoleListScreen config={ADMIN_ROLE_SCREENS} />
}
