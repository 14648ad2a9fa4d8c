/** The 内置角色管理 screens, as the route table (app/routes.tsx) names them. */
export { AdminRoleListPage } from './list-page'
export { AdminRoleAddPage } from './add-page'
export { AdminRoleInfoPage } from './info-page'
