/** The 角色管理 screens, as the route table (app/routes.tsx) names them. */
export { RoleListPage } from './list-page'
export { RoleInfoPage } from './info-page'
export { RoleAddPage } from './add-page'
