/** The position screens, one file each; the route table loads them from here (app/lazy-pages.tsx). */
export { PositionInfoPage } from './info-page'
export { PositionListPage } from './list-page'
export { PositionRoleTab, PositionUserTab } from './link-tabs'
