import { RoleInfoScreen } from '../../components/role-screens'
import { ROLE_SCREENS } from './config'

/** /rolemanage/roleinfo?title=&isDisable=&id=&isShow=: edit, or view read-only when isDisable. */
export function RoleInfoPage() {
  return <RoleInfoScreen config={ROLE_SCREENS} />
}
