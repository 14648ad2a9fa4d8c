export { ReviewListPage } from './list-page'
export { ReviewItemsPage } from './items-page'
