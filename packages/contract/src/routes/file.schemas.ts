import { Envelope } from '../schemas/common'
import { DownloadQuery, UploadBodyDoc, UploadResult } from '../schemas/file'
import { bindSchemas } from './route'
import { fileRoutes } from './file'

export const fileSchemas = {
  upload: {
    // documents the multipart fields on the OpenAPI page; the handler parses and checks them itself
    consumes: ['multipart/form-data'],
    body: UploadBodyDoc,
    response: { 200: Envelope(UploadResult) },
  },
  download: {
    description:
      '上传者可下载自己的文件；持有“下载所有人的文件”权限者与超级管理员可下载任何文件。他人的文件与不存在的文件同样回答 404',
    querystring: DownloadQuery,
    produces: ['application/octet-stream'],
  },
}

export const fileApi = bindSchemas(fileRoutes, fileSchemas)
