import { RoleInfoScreen } from '../../components/role-screens'
import { ADMIN_ROLE_SCREENS } from './config'

/** /adminrolemanage/adminroleinfo?title=&id=&isDisable=&isShow=: edit, or view read-only. */
export function AdminRoleInfoPage() {
  return <RoleInfoScreen config={ADMIN_ROLE_SCREENS} />
}
