import {
  AUTH_HEADER,
  MSG,
  SUCCESS_CODE,
  TOKEN_STORAGE_KEY,
  uploadTooLarge,
  type UploadResult,
} from '@amg/contract'
import { UploadOutlined } from '@ant-design/icons'
import { Alert, Upload as AntUpload } from 'antd'
import type { RcFile, UploadFile } from 'antd/es/upload'
import { message } from '../lib/static-message'
import { useRef, useState } from 'react'
import { Button } from './button'

/** The upload endpoint (DESIGN.md §5) and the console's default keep time. */
export const UPLOAD_URL = '/api/file-manage/upload-one-step'
export const DEFAULT_KEEP_TIME = '1h'

/** The file info the server answers in `data` (the contract's type: `fileId` is a random UUID string). */
export type UploadedFile = UploadResult

/** SPEC.md §5: the warning when the selection exceeds maxCount (limit, selection count, total). */
export const exceedMessage = (limit: number, selected: number, total: number) =>
  `当前限制选择 ${limit} 个文件，本次选择了 ${selected} 个文件，共选择了 ${total} 个文件`

export interface UploadProps {
  /** Automatic (upload on choosing) or manual (choose the files, then confirm). */
  mode?: 'auto' | 'manual'
  /** Largest file in MB. */
  maxSize?: number
  /** Most files in the list. */
  maxCount?: number
  /** How long the server keeps the file (default '1h'). */
  keepTime?: string
  accept?: string
  multiple?: boolean
  disabled?: boolean
  action?: string
  onSuccess?: (file: UploadedFile, raw: RcFile) => void
  onError?: (msg: string, raw: RcFile) => void
  /** On 401 re-login; default: forget the token and reload. */
  onRelogin?: () => void
  buttonText?: string
}

type Problem = { kind: 401 | 403; file: RcFile } | null

class UploadError extends Error {
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message)
  }
}

/** Posts one file as multipart `file` + `keepTime` with the session token; answers `data`. */
export async function uploadFile(
  file: Blob,
  keepTime = DEFAULT_KEEP_TIME,
  action = UPLOAD_URL,
): Promise<UploadedFile> {
  const body = new FormData()
  body.append('file', file)
  body.append('keepTime', keepTime)
  const headers: Record<string, string> = {}
  const token = localStorage.getItem(TOKEN_STORAGE_KEY)
  if (token) headers[AUTH_HEADER] = token
  let response: Response
  try {
    response = await fetch(action, { method: 'POST', body, headers })
  } catch {
    throw new UploadError('Network Error', 0)
  }
  let json: { code?: number; msg?: string; data?: UploadedFile } | null = null
  try {
    json = await response.json()
  } catch {
    json = null
  }
  const code = typeof json?.code === 'number' ? json.code : response.status
  if (!response.ok || code !== SUCCESS_CODE) {
    throw new UploadError(json?.msg || MSG.uploadFailed, code === SUCCESS_CODE ? response.status : code)
  }
  return json!.data as UploadedFile
}

/** Upload widget (SPEC.md §4, §5, §8). */
export function Upload({
  mode = 'auto',
  maxSize,
  maxCount,
  keepTime = DEFAULT_KEEP_TIME,
  accept,
  multiple,
  disabled,
  action = UPLOAD_URL,
  onSuccess,
  onError,
  onRelogin,
  buttonText = '选择文件',
}: UploadProps) {
  const [files, setFiles] = useState<UploadFile[]>([])
  const [problem, setProblem] = useState<Problem>(null)
  const filesRef = useRef(files)
  filesRef.current = files

  const patch = (uid: string, change: Partial<UploadFile>) =>
    setFiles((list) => list.map((f) => (f.uid === uid ? { ...f, ...change } : f)))

  const send = async (file: RcFile) => {
    setProblem(null)
    patch(file.uid, { status: 'uploading', percent: 0 })
    try {
      const data = await uploadFile(file, keepTime, action)
      patch(file.uid, { status: 'done', percent: 100, response: data, url: data?.url })
      onSuccess?.(data, file)
    } catch (error) {
      const err = error instanceof UploadError ? error : new UploadError(MSG.uploadFailed, 0)
      patch(file.uid, { status: 'error', error: err })
      if (err.code === 401) setProblem({ kind: 401, file })
      else if (err.code === 403) setProblem({ kind: 403, file })
      else void message.error(err.message)
      onError?.(err.message, file)
    }
  }

  const beforeUpload = (file: RcFile, batch: RcFile[]) => {
    if (maxCount !== undefined && batch.length + filesRef.current.length > maxCount) {
      if (file === batch[0])
        void message.warning(exceedMessage(maxCount, batch.length, batch.length + filesRef.current.length))
      return AntUpload.LIST_IGNORE
    }
    if (maxSize !== undefined && file.size / 1024 / 1024 > maxSize) {
      void message.error(uploadTooLarge(maxSize))
      return AntUpload.LIST_IGNORE
    }
    setFiles((list) => [
      ...list,
      {
        uid: file.uid,
        name: file.name,
        size: file.size,
        originFileObj: file,
        status: mode === 'auto' ? 'uploading' : undefined,
      },
    ])
    if (mode === 'auto') void send(file)
    return false
  }

  const relogin = () => {
    setProblem(null)
    if (onRelogin) onRelogin()
    else {
      localStorage.removeItem(TOKEN_STORAGE_KEY)
      window.location.reload()
    }
  }

  const pending = files.filter((f) => !f.status || f.status === 'error')

  return (
    <div className="amg-upload">
      {problem?.kind === 401 ? (
        <Alert
          type="warning"
          showIcon
          title={MSG.uploadUnauthorized}
          action={
            <Button size="small" type="primary" onClick={relogin}>
              重新登录
            </Button>
          }
          style={{ marginBottom: 8 }}
        />
      ) : null}
      {problem?.kind === 403 ? (
        <Alert
          type="error"
          showIcon
          title={MSG.uploadFailed}
          action={
            <Button size="small" onClick={() => void send(problem.file)}>
              重新上传
            </Button>
          }
          style={{ marginBottom: 8 }}
        />
      ) : null}
      <AntUpload
        accept={accept}
        multiple={multiple}
        disabled={disabled}
        fileList={files}
        beforeUpload={beforeUpload}
        onRemove={(file) => setFiles((list) => list.filter((f) => f.uid !== file.uid))}
      >
        <Button icon={<UploadOutlined />} disabled={disabled}>
          {buttonText}
        </Button>
      </AntUpload>
      {mode === 'manual' ? (
        <Button
          type="primary"
          style={{ marginTop: 8 }}
          disabled={disabled || pending.length === 0}
          onClick={() => pending.forEach((f) => f.originFileObj && void send(f.originFileObj))}
        >
          确认上传
        </Button>
      ) : null}
    </div>
  )
}
