import { RoleAddScreen } from '../../components/role-screens'
import { ROLE_SCREENS } from './config'

/** /rolemanage/addrole?isShow=: role name, description and permission tree. */
export function RoleAddPage() {
  return <RoleAddScreen config={ROLE_SCREENS} />
}
