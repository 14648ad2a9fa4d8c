/** The job title screens, one file each; the route table loads them from here (app/lazy-pages.tsx). */
export { StationAddPage } from './add-page'
export { StationEditPage } from './edit-page'
export { StationListPage } from './list-page'
export { StationViewPage } from './view-page'
