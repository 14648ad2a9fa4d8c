import { Tag, Typography } from 'antd'
import { STATUS, STATUS_LABEL, USER_STATUS, USER_STATUS_LABEL } from '@amg/contract'
import dayjs from '../../lib/dayjs'
import { useSearchParams } from 'react-router'

/** User status (SPEC.md §3): 1 正常, 2 冻结. */
export const USER_STATUS_OPTIONS = [
  { value: USER_STATUS.active, label: USER_STATUS_LABEL[USER_STATUS.active] },
  { value: USER_STATUS.frozen, label: USER_STATUS_LABEL[USER_STATUS.frozen] },
]

// any status but active reads as frozen, as before
export function UserStatusTag({ status }: { status: number }) {
  return status === USER_STATUS.active ? (
    <Tag color="success">{USER_STATUS_LABEL[USER_STATUS.active]}</Tag>
  ) : (
    <Tag color="error">{USER_STATUS_LABEL[USER_STATUS.frozen]}</Tag>
  )
}

/** Enabled/disabled status of roles, groups and positions; any status but enabled reads as disabled. */
export function EnabledTag({ status }: { status: number }) {
  return status === STATUS.enabled ? (
    <Tag color="success">{STATUS_LABEL[STATUS.enabled]}</Tag>
  ) : (
    <Tag>{STATUS_LABEL[STATUS.disabled]}</Tag>
  )
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
