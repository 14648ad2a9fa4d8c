import { Button } from 'antd'
import { DownloadOutlined } from '@ant-design/icons'
import { useMutation } from '@tanstack/react-query'
import type { Route } from '@amg/contract'
import { useCanCall } from '../lib/can-call'
import { downloadFile } from '../lib/download'
import { toastSuccess } from '../lib/feedback'

/** A list's filters as an export's query: the empty ones (null, blank, no items) left out. */
export function exportQuery(filters: object | undefined): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(filters ?? {}).filter(
      ([, v]) =>
        v !== null &&
        v !== undefined &&
        !(typeof v === 'string' && v.trim() === '') &&
        !(Array.isArray(v) && !v.length),
    ),
  )
}

/**
 * 导出 on a list screen (DESIGN.md §15): the server streams a workbook of the rows the list shows for
 * `params`, the screen's current filters (the export takes the list's own), saved under the name it
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
    mutationFn: () => downloadFile(route.path, exportQuery(params), fallbackName),
    onSuccess: () => toastSuccess('导出成功'),
  })
  if (!allowed) return null
  return (
    <Button icon={<DownloadOutlined />} loading={exporting.isPending} onClick={() => exporting.mutate()}>
      导出
    </Button>
  )
}
