import { routes, type OperationLogListBody, type RouteBody } from '@amg/contract'
import { downloadFile } from '../../lib/download'
import { request } from '../../lib/route-call'

/** DESIGN.md §9: the operation log, the login log and the online sessions. */

export const OPERATION_LOG_KEY = ['monitor', 'operation-log'] as const
export const LOGIN_LOG_KEY = ['monitor', 'login-log'] as const
export const ONLINE_KEY = ['monitor', 'online'] as const

/** The filters of the operation log list, also the export's query. */
export type OperationLogFilters = Omit<OperationLogListBody, 'pageNum' | 'pageSize'>

/** Empty filters are left out: the server reads a missing filter as "any". */
function present<T extends object>(filters: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(filters).filter(([, v]) => v !== undefined && v !== null && v !== ''),
  ) as Partial<T>
}

/** Newest first, without `changes`; past 10,000 matches the total is estimated and says so. */
export const listOperationLogs = (body: OperationLogListBody) =>
  request(routes.monitor.operationList, { body: present(body) })

/** The row with its `changes`. */
export const fetchOperationLog = (id: number) => request(routes.monitor.operationDetail, { query: { id } })

/** The CSV of the filtered rows, saved as a file; answers its name. */
export const exportOperationLogs = (filters: OperationLogFilters) =>
  downloadFile(routes.monitor.operationExport.path, present(filters), 'operation-log.csv')

/** Newest first. */
export const listLoginLogs = (body: RouteBody<typeof routes.monitor.loginList>) =>
  request(routes.monitor.loginList, { body: present(body) })

/** Live sessions; `current` marks the caller's own. */
export const listOnlineSessions = (body: RouteBody<typeof routes.monitor.onlineList>) =>
  request(routes.monitor.onlineList, { body: present(body) })

/** Ends that session at once. */
export const revokeSession = (id: number) => request(routes.monitor.revoke, { query: { id } })
