import { GroupAddScreen } from './add-page'
import { GroupInfoScreen } from './info-page'
import { GroupListScreen } from './list-page'

/** /usergroupmanage */
export function UserGroupListPage() {
  return <GroupListScreen />
}

/** /usergroupmanage/addusergroup */
export function UserGroupAddPage() {
  return <GroupAddScreen />
}

/** /usergroupmanage/usergroupinfo?isDisable=&id=&isShow= — three tabs, usergroupbaseinfo by default. */
export function UserGroupInfoPage() {
  return <GroupInfoScreen />
}
