import { DatePicker } from 'antd'
import { LINK_EXPIRY_MSG } from '@amg/contract'
import dayjs, { type Dayjs } from '../lib/dayjs'

/**
 * Expiring links (DESIGN.md §20) in the console: the optional 到期时间 of a link picker, and the
 * 到期时间 column of a link list (永久 when the link has none). The value travels as an ISO time.
 */

const SHOWN = 'YYYY-MM-DD HH:mm'

/** How a link list shows a link's expiry. */
export const expiryText = (expiresAt: string | null | undefined) =>
  expiresAt ? dayjs(expiresAt).format(SHOWN) : LINK_EXPIRY_MSG.permanent

/** The 到期时间 column of a link list. */
export const expiryColumn = <T,>() => ({
  title: '到期时间',
  dataIndex: 'expiresAt',
  key: 'expiresAt',
  width: 150,
  render: (value: string | null | undefined, _row: T) => expiryText(value),
})

/**
 * The picker's 到期时间: empty for a permanent link; only future times may be chosen (the server
 * refuses a past one too). Its panel opens inside the popover, so choosing a time keeps the popover open.
 */
export function ExpiryPicker({
  value,
  onChange,
}: {
  value: string | null
  onChange(next: string | null): void
}) {
  const parsed = value ? dayjs(value) : null
  return (
    <DatePicker
      size="small"
      showTime={{ format: 'HH:mm' }}
      format={SHOWN}
      allowClear
      placeholder="到期时间（不填为永久）"
      aria-label="到期时间"
      data-testid="link-expiry"
      style={{ width: '100%' }}
      value={parsed}
      disabledDate={(d: Dayjs) => d.isBefore(dayjs().startOf('day'))}
      getPopupContainer={(node) => node.parentElement ?? document.body}
      onChange={(d: Dayjs | null) => onChange(d ? d.toISOString() : null)}
    />
  )
}
