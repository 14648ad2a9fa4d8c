import { describeRoutes } from './route'
import type { importSchemas } from './import.schemas'

/** Bringing a company in (DESIGN.md §15): templates, import jobs, the user export. */
export const importRoutes = describeRoutes<typeof importSchemas>()('user', {
  userTemplate: { method: 'GET', path: '/user/import/template', summary: '下载用户导入模板' },
  userImport: { method: 'POST', path: '/user/import', summary: '导入用户' },
  orgTemplate: { method: 'GET', path: '/org/import/template', summary: '下载部门导入模板' },
  orgImport: { method: 'POST', path: '/org/import', summary: '导入部门' },
  job: { method: 'GET', path: '/import/job', summary: '导入进度' },
  result: { method: 'GET', path: '/import/result', summary: '下载导入结果' },
  userExport: { method: 'GET', path: '/user/export', summary: '导出用户' },
})
