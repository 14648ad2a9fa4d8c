/** The position screens, one file each; the route table loads them from here (app/lazy-pages.tsx). */
export { PositionInfoPage } from './info-page'
export { PositionListPage } from './list-page'
export { PositionRoleTab } from './role-tab'
export { PositionUserTab } from './user-tab'
