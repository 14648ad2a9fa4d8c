import { Tag, Typography } from 'antd'
import dayjs from '../../lib/dayjs'
import { useSearchParams } from 'react-router'

/** User status (SPEC.md §3): 1 正常, 2 冻结. */
export const USER_STATUS_OPTIONS = [
  { value: 1, label: '正常' },
  { value: 2, label: '冻结' },
]

export function UserStatusTag({ status }: { status: number }) {
  return status === 1 ? <Tag color="success">正常</Tag> : <Tag color="error">冻结</Tag>
}

/** Enabled/disabled status of roles, groups and positions. */
export function EnabledTag({ status }: { status: number }) {
  return status === 1 ? <Tag color="success">启用</Tag> : <Tag>禁用</Tag>
}

export const DATE_TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss'
export const formatDateTime = (value: string | Date | null | undefined) =>
  value ? dayjs(value).format(DATE_TIME_FORMAT) : ''

/** The `id` query of the user tabs; null when missing or not a positive integer. */
export function useUserIdParam(): number | null {
  const [params] = useSearchParams()
  const id = Number(params.get('id'))
  return Number.isInteger(id) && id > 0 ? id : null
}

/** The heading inside a tab (the tab bar itself is the navigation). */
export function TabHeading({ children }: { children: string }) {
  return (
    <Typography.Title level={5} style={{ marginTop: 0 }}>
      {children}
    </Typography.Title>
  )
}

export function MissingUser() {
  return <Typography.Text type="danger">缺少用户 id</Typography.Text>
}
