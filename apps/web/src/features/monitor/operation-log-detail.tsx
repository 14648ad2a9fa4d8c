import { useQuery } from '@tanstack/react-query'
import { Descriptions, Drawer, Skeleton, Typography } from 'antd'
import { OPERATION_LOG_KEY, fetchOperationLog } from './api'
import { ChangesTable } from './changes-table'
import { OPERATION_RESULT, OperatorName, ResultTag, formatLogTime, resourceText } from './common'

/** Labels keep one line, whatever the drawer's width: the values wrap instead. */
const LABEL_STYLE = { whiteSpace: 'nowrap', width: 84 } as const

/** The detail drawer of one operation: the request's facts, then its changes (字段 / 修改前 / 修改后). */
export function OperationLogDetailDrawer({ id, onClose }: { id: number | null; onClose: () => void }) {
  const detail = useQuery({
    queryKey: [...OPERATION_LOG_KEY, 'detail', id],
    queryFn: () => fetchOperationLog(id!),
    enabled: id !== null,
  })
  const log = detail.data
  return (
    // never wider than the window: on a phone the drawer takes the whole width
    <Drawer title="操作详情" open={id !== null} onClose={onClose} size="min(720px, 100vw)" destroyOnHidden>
      {detail.isPending || !log ? (
        <Skeleton active loading={detail.isPending} />
      ) : (
        <div data-testid="operation-log-detail">
          <Descriptions
            bordered
            size="small"
            column={{ xs: 1, sm: 1, md: 2 }}
            styles={{ label: LABEL_STYLE }}
            items={[
              { key: 'time', label: '时间', children: formatLogTime(log.time) },
              {
                key: 'operator',
                label: '操作人',
                children: <OperatorName id={log.operatorId} name={log.operatorName} />,
              },
              { key: 'summary', label: '操作', children: log.summary ?? '—' },
              { key: 'resource', label: '资源', children: resourceText(log) || '—' },
              { key: 'resourceType', label: '资源类型', children: log.resourceType ?? '—' },
              { key: 'resourceId', label: '资源 ID', children: log.resourceId ?? '—' },
              {
                key: 'request',
                label: '请求',
                span: 'filled',
                children: (
                  <Typography.Text code>
                    {log.method} {log.path}
                  </Typography.Text>
                ),
              },
              {
                key: 'result',
                label: '结果',
                children: <ResultTag value={log.result} results={OPERATION_RESULT} />,
              },
              { key: 'status', label: '状态码', children: log.status },
              { key: 'ip', label: 'IP', children: log.ip ?? '—' },
              { key: 'msg', label: '消息', span: 'filled', children: log.msg ?? '—' },
              { key: 'userAgent', label: '浏览器', span: 'filled', children: log.userAgent ?? '—' },
            ]}
          />
          <Typography.Title level={5} style={{ marginTop: 24 }}>
            变更内容
          </Typography.Title>
          <ChangesTable changes={log.changes} />
        </div>
      )}
    </Drawer>
  )
}
