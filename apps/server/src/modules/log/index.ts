/**
 * The operation and login logs (DESIGN.md §9), one question per file: operations.ts — the operation
 * list and detail; operation-export.ts — its CSV export; logins.ts — the login list and both logs'
 * retention; filters.ts — which rows a query reads.
 */
export { listOperations, operationDetail } from './operations'
export { exportOperations } from './operation-export'
export { listLogins, sweepLogs } from './logins'
