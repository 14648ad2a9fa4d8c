import { RoleListScreen } from '../../components/role-screens'
import { ROLE_SCREENS } from './config'

/** /rolemanage: the roles of every type, the ordinary ones editable. */
export function RoleListPage() {
  return <RoleListScreen config={ROLE_SCREENS} />
}
