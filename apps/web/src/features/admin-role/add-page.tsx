import { RoleAddScreen } from '../../components/role-screens'
import { ADMIN_ROLE_SCREENS } from './config'

/** /adminrolemanage/adminroleadd?isShow=: name, type (only when isShow), description, permission tree. */
export function AdminRoleAddPage() {
  return <RoleAddScreen config={ADMIN_ROLE_SCREENS} />
}
