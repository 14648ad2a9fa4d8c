/** The 系统监控 screens (DESIGN.md §9), as the route table (app/routes.tsx) names them. */
export { OperationLogPage } from './operation-log-page'
export { LoginLogPage } from './login-log-page'
export { OnlinePage } from './online-page'
