import { Envelope, NullData } from '../schemas/common'
import {
  LogIdQuery,
  LoginLogListBody,
  LoginLogPage,
  OnlineSessionListBody,
  OnlineSessionPage,
  OperationLogDetail,
  OperationLogExportQuery,
  OperationLogListBody,
  OperationLogPage,
  SessionIdQuery,
} from '../schemas/log'
import { bindSchemas } from './route'
import { monitorRoutes } from './monitor'

export const monitorSchemas = {
  operationList: { body: OperationLogListBody, response: { 200: Envelope(OperationLogPage) } },
  operationDetail: { querystring: LogIdQuery, response: { 200: Envelope(OperationLogDetail) } },
  operationExport: {
    description: 'CSV（UTF-8 带 BOM，中文表头），筛选条件与列表相同',
    querystring: OperationLogExportQuery,
  },
  loginList: { body: LoginLogListBody, response: { 200: Envelope(LoginLogPage) } },
  onlineList: { body: OnlineSessionListBody, response: { 200: Envelope(OnlineSessionPage) } },
  revoke: { querystring: SessionIdQuery, response: { 200: NullData } },
}

export const monitorApi = bindSchemas(monitorRoutes, monitorSchemas)
