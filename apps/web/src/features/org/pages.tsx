/** The department screens, one file each; the route table loads them from here (app/lazy-pages.tsx). */
export { OrgAddFormPage } from './add-page'
export { OrgBaseInfoTab } from './base-info-tab'
export { OrgEditFormPage } from './edit-page'
export { OrgManagePage } from './manage-page'
export { OrgRelStationTab } from './rel-station-tab'
