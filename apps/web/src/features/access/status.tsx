import { Tag, Typography } from 'antd'
import { ACCESS_REQUEST_STATUS_LABEL } from '@amg/contract'
import { formatTime } from '../../components/list-columns'

const COLOR: Record<string, string> = {
  pending: 'processing',
  approved: 'success',
  rejected: 'error',
  cancelled: 'default',
  expired: 'warning',
}

/** A request's state as a tag (待审批 … 已过期). */
export function RequestStatus({ status }: { status: string }) {
  const label = ACCESS_REQUEST_STATUS_LABEL[status as keyof typeof ACCESS_REQUEST_STATUS_LABEL] ?? status
  return <Tag color={COLOR[status] ?? 'default'}>{label}</Tag>
}

/** 到期时间: a time, or 长期 for a link without an end. */
export function Until({ at }: { at: string | Date | null | undefined }) {
  if (!at) return <Typography.Text type="secondary">长期</Typography.Text>
  return <span>{formatTime(String(at instanceof Date ? at.toISOString() : at))}</span>
}

/** A request's length: minutes, or 长期. */
export const lengthText = (minutes: number | null) => (minutes === null ? '长期' : `${minutes} 分钟`)
