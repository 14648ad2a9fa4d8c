import { Envelope } from '../schemas/common'
import { ImportBodyDoc, ImportJob, ImportJobQuery, ImportStarted, UserExportQuery } from '../schemas/import'
import { bindSchemas } from './route'
import { importRoutes } from './import'

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'

const upload = {
  consumes: ['multipart/form-data'],
  body: ImportBodyDoc,
  response: { 200: Envelope(ImportStarted) },
}

export const importSchemas = {
  userTemplate: { produces: [XLSX] },
  userImport: {
    description: '每行与单个新建/修改用户及关联调用同样校验（字段、权限、数据范围）；一次只运行一个导入',
    ...upload,
  },
  orgTemplate: { produces: [XLSX] },
  orgImport: {
    description:
      '部门全称如“总公司/研发中心/后端组”，职位为该部门的岗位；职位不存在时如新建职位一样创建（需新建职位权限）',
    ...upload,
  },
  job: { querystring: ImportJobQuery, response: { 200: Envelope(ImportJob) } },
  result: { querystring: ImportJobQuery, produces: [XLSX] },
  userExport: { querystring: UserExportQuery, produces: [XLSX] },
}

export const importApi = bindSchemas(importRoutes, importSchemas)
