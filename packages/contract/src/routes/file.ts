import { describeRoutes } from './route'
import type { fileSchemas } from './file.schemas'

/** Files: upload and download (SPEC.md §7). */
export const fileRoutes = describeRoutes<typeof fileSchemas>()('file', {
  upload: { method: 'POST', path: '/file-manage/upload-one-step', summary: '上传文件' },
  download: { method: 'GET', path: '/file-manage/download', summary: '下载文件' },
})
