import { Button } from 'antd'
import { DownloadOutlined } from '@ant-design/icons'
import { useMutation } from '@tanstack/react-query'
import type { Route } from '@amg/contract'
import { useCanCall } from '../lib/can-call'
import { downloadFile } from '../lib/download'
import { toastSuccess } from '../lib/feedback'

/**
 * 导出 on a list screen (DESIGN.md §15): the server streams a workbook, saved under the name it
 * gives. Shown only to a caller who may make the call.
 */
export function ExportButton({
  route,
  params,
  fallbackName,
}: {
  route: Route
  params?: object
  fallbackName: string
}) {
  const allowed = useCanCall(route)
  const exporting = useMutation({
    mutationFn: () => downloadFile(route.path, params, fallbackName),
    onSuccess: () => toastSuccess('导出成功'),
  })
  if (!allowed) return null
  return (
    <Button icon={<DownloadOutlined />} loading={exporting.isPending} onClick={() => exporting.mutate()}>
      导出
    </Button>
  )
}
