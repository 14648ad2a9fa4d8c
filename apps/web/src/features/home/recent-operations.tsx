import { Space, Tag, theme, Typography } from 'antd'
import type { SystemOverview } from '@amg/contract'
import { List } from '../../components/list'
import dayjs from '../../lib/dayjs'
import { OverviewCard } from './overview-card'

type Operation = NonNullable<SystemOverview['recentOperations']>[number]

/** Results other than success, marked as the operation log screen marks them (a feature of its own). */
const NOT_DONE: Record<string, { label: string; color: string }> = {
  denied: { label: '拒绝', color: 'warning' },
  failed: { label: '失败', color: 'error' },
}

/** The user's own last operations (newest first), each with what it was about and when. */
export function RecentOperations({ operations }: { operations?: Operation[] }) {
  const { token } = theme.useToken()
  return (
    <OverviewCard title="我最近的操作" to="/operlog" testId="overview-recent">
      <List
        items={operations ?? []}
        rowKey={(op) => op.id}
        empty="还没有操作记录"
        renderItem={(op) => (
          <div style={{ display: 'flex', flexWrap: 'wrap', justifyContent: 'space-between', gap: 4 }}>
            <Space size={4} wrap>
              <Typography.Text strong>{op.summary ?? '操作'}</Typography.Text>
              {op.resourceName && <Typography.Text>{op.resourceName}</Typography.Text>}
              {NOT_DONE[op.result] && (
                <Tag color={NOT_DONE[op.result].color}>{NOT_DONE[op.result].label}</Tag>
              )}
            </Space>
            <span style={{ color: token.colorTextDescription }}>
              {dayjs(op.time).format('YYYY-MM-DD HH:mm:ss')}
            </span>
          </div>
        )}
      />
    </OverviewCard>
  )
}
