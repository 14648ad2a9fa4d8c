import type {
  LoginLogListBody,
  LoginLogRow,
  OnlineSessionListBody,
  OnlineSessionRow,
  OperationLogDetail,
  OperationLogListBody,
  OperationLogRow,
  PageResult,
} from '@amg/contract'
import { downloadFile } from '../../lib/download'
import { del, get, post } from '../../lib/http'

/** A log page: past 10,000 matches the server estimates the total and says so. */
type LogPage<T> = PageResult<T> & { totalIsEstimate?: boolean }

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

/** POST /log/operation/list: newest first, without `changes`. */
export const listOperationLogs = (body: OperationLogListBody) =>
  post<LogPage<OperationLogRow>>('/log/operation/list', present(body))

/** GET /log/operation/detail?id=: the row with its `changes`. */
export const fetchOperationLog = (id: number) => get<OperationLogDetail>('/log/operation/detail', { id })

/** GET /log/operation/export: the CSV of the filtered rows, saved as a file; answers its name. */
export const exportOperationLogs = (filters: OperationLogFilters) =>
  downloadFile('/log/operation/export', present(filters), 'operation-log.csv')

/** POST /log/login/list: newest first. */
export const listLoginLogs = (body: LoginLogListBody) =>
  post<LogPage<LoginLogRow>>('/log/login/list', present(body))

/** POST /session/online/list: live sessions; `current` marks the caller's own. */
export const listOnlineSessions = (body: OnlineSessionListBody) =>
  post<PageResult<OnlineSessionRow>>('/session/online/list', present(body))

/** DELETE /session/online/revoke?id=: ends that session at once. */
export const revokeSession = (id: number) => del<null>('/session/online/revoke', { id })
