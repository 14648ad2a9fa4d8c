import { Button, Result } from 'antd'
import { useNavigate } from 'react-router'
import type { ApiError } from '../lib/http'

/** The refusal (403: outside the caller's scope) or absence (404) a record's address met, else null. */
export function unreachable(error: unknown): ApiError | null {
  // read by its status, not its class: every failure of the HTTP layer carries one (lib/http.ts)
  const status = (error as { status?: unknown } | null)?.status
  return error instanceof Error && (status === 403 || status === 404) ? (error as ApiError) : null
}

/**
 * What a record opened by its address shows when the server will not give it (a user or department
 * outside the caller's scope, or one since deleted): the server's reason in a page of its own, in
 * place of an empty form under a refusal toast.
 */
export function UnreachableRecord({
  error,
  backTo,
  backLabel = '返回列表',
}: {
  error: ApiError
  backTo: string
  backLabel?: string
}) {
  const navigate = useNavigate()
  const gone = error.status === 404
  return (
    <Result
      status={gone ? '404' : '403'}
      title={gone ? '记录不存在' : '无权查看'}
      subTitle={error.message}
      extra={
        <Button type="primary" onClick={() => navigate(backTo)}>
          {backLabel}
        </Button>
      }
    />
  )
}
