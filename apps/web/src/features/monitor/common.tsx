import {
  LOGIN_RESULTS,
  OPERATION_RESULTS,
  instantOfWall,
  logTimeText,
  routes,
  zonedIso,
  type Route,
} from '@amg/contract'
import { DatePicker, Tag, Tooltip, Typography } from 'antd'
import dayjs, { type Dayjs } from '../../lib/dayjs'

export const DATE_TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss'
/**
 * A log time as the server wrote it, in its zone with the offset (`2026-11-26 14:03:05 +08:00`), never
 * in the browser's: the screen, the CSV and every reader agree (decisions.md "Log times").
 */
export const formatLogTime = (value: string | null | undefined) => logTimeText(value)

/** Wide enough for a log time with its offset on one line. */
export const LOG_TIME_WIDTH = 210

type Labelled<K extends string> = Record<K, { label: string; color: string }>

/** Operation results (DESIGN.md §9): a write that went through, one refused (401/403/409), one that failed. */
export const OPERATION_RESULT: Labelled<(typeof OPERATION_RESULTS)[number]> = {
  success: { label: '成功', color: 'success' },
  denied: { label: '拒绝', color: 'warning' },
  failed: { label: '失败', color: 'error' },
}

/** Sign-in results (DESIGN.md §9). */
export const LOGIN_RESULT: Labelled<(typeof LOGIN_RESULTS)[number]> = {
  success: { label: '成功', color: 'success' },
  failure: { label: '失败', color: 'error' },
  locked: { label: '已锁定', color: 'volcano' },
  frozen: { label: '已冻结', color: 'purple' },
  logout: { label: '退出', color: 'default' },
  revoked: { label: '强制下线', color: 'magenta' },
  mfa_failure: { label: '验证码错误', color: 'error' },
  recovery_used: { label: '恢复码登录', color: 'gold' },
  password_expired: { label: '密码过期', color: 'orange' },
}

/** A result filter from the URL: one the server knows, else none (a hand-edited link is not an error). */
export const knownResult = <R extends string>(results: readonly R[], value: string): R | '' =>
  (results as readonly string[]).includes(value) ? (value as R) : ''

/** A time filter from the URL: a valid time, else none. */
export const validTime = (value: string) => (value && dayjs(value).isValid() ? value : '')

export const resultOptions = (results: Record<string, { label: string }>) =>
  Object.entries(results).map(([value, { label }]) => ({ value, label }))

/** A result as a coloured tag; an unknown value shows as it is. */
export function ResultTag({
  value,
  results,
}: {
  value: string
  results: Record<string, { label: string; color: string }>
}) {
  const known = results[value]
  return <Tag color={known?.color ?? 'default'}>{known?.label ?? value}</Tag>
}

/** Whether a route's calls get an operation log row, as the server decides: a write not marked read-only. */
const isLoggedWrite = (route: Route) =>
  [route.method].flat().some((m) => m !== 'GET' && m !== 'HEAD' && m !== 'OPTIONS') && !route.readOnly

/**
 * The resource types of the operation log: the group names of the resources with a write route, which
 * is what the log's `resourceType` holds (the group of the route called), in the contract's order.
 */
export const RESOURCE_TYPES: string[] = [
  // several route files may log under one group (the user import under 用户管理): each group once
  ...new Set(
    Object.values(routes)
      .filter((resource) => Object.values<Route>(resource).some(isLoggedWrite))
      .map((resource) => Object.values<Route>(resource)[0].group),
  ),
]

/** Browser marks in the order they must be tried: Edge and Opera also say Chrome, Chrome also says Safari. */
const BROWSERS: [RegExp, string][] = [
  [/Edg(?:e|A|iOS)?\/(\d+)/, 'Edge'],
  [/(?:OPR|Opera)\/(\d+)/, 'Opera'],
  [/Firefox\/(\d+)/, 'Firefox'],
  [/(?:Chrome|CriOS)\/(\d+)/, 'Chrome'],
  [/Version\/(\d+)[^ ]* .*Safari\//, 'Safari'],
]

/** A short browser name from a user agent ('Chrome 131 · Linux'); the whole text shows on hover. */
export function browserName(userAgent: string | null | undefined): string {
  if (!userAgent) return ''
  let name: string | undefined
  for (const [pattern, label] of BROWSERS) {
    const match = pattern.exec(userAgent)
    if (match) {
      name = `${label} ${match[1]}`
      break
    }
  }
  // not a browser (a script, curl): its first word
  name ??= /^[^\s/]+(?:\/[^\s]+)?/.exec(userAgent)?.[0] ?? userAgent
  const os = /Windows|Mac OS X|Android|iPhone|iPad|Linux/.exec(userAgent)?.[0]
  const osName = os === 'Mac OS X' ? 'macOS' : os
  return osName ? `${name} · ${osName}` : name
}

export function UserAgent({ value }: { value: string | null | undefined }) {
  if (!value) return null
  return (
    <Tooltip title={value}>
      <Typography.Text>{browserName(value)}</Typography.Text>
    </Tooltip>
  )
}

/** The zone the browser runs in: the filter's zone until the server has named its own. */
const BROWSER_ZONE = new Intl.DateTimeFormat().resolvedOptions().timeZone

/**
 * The picker's value for an instant: a date whose wall time is the instant's wall time in `zone`
 * (the picker draws any date by its wall time), so the picker shows the server's clock.
 */
const wallOf = (instant: Date | string, zone: string): Dayjs =>
  dayjs(zonedIso(new Date(instant), zone).slice(0, 19))

/** The instant a picked wall time names in `zone`, as ISO 8601. */
const instantOf = (picked: Dayjs, zone: string): string =>
  instantOfWall(picked.format('YYYY-MM-DDTHH:mm:ss'), zone).toISOString()

/**
 * A time range kept as two ISO 8601 instants ('' when open), picked with antd's RangePicker in the
 * server's zone (`timeZone`, from the log's answer), the zone the rows' times are shown in: 今天 is
 * the server's today, whatever the browser's zone (decisions.md "Log times").
 */
export function TimeRangeFilter({
  from,
  to,
  timeZone,
  onChange,
}: {
  from: string
  to: string
  timeZone?: string
  onChange: (from: string, to: string) => void
}) {
  const zone = timeZone ?? BROWSER_ZONE
  const shown = (value: string) => (value && dayjs(value).isValid() ? wallOf(value, zone) : null)
  const now = wallOf(new Date(), zone)
  return (
    <DatePicker.RangePicker
      aria-label="时间范围"
      style={{ width: '100%' }}
      showTime={{ defaultValue: [dayjs('00:00:00', 'HH:mm:ss'), dayjs('23:59:59', 'HH:mm:ss')] }}
      format={DATE_TIME_FORMAT}
      placeholder={['开始时间', '结束时间']}
      value={[shown(from), shown(to)]}
      presets={[
        { label: '最近 1 小时', value: [now.subtract(1, 'hour'), now] },
        { label: '今天', value: [now.startOf('day'), now.endOf('day')] },
        { label: '最近 7 天', value: [now.subtract(7, 'day').startOf('day'), now.endOf('day')] },
        { label: '最近 30 天', value: [now.subtract(30, 'day').startOf('day'), now.endOf('day')] },
      ]}
      onChange={(range: [Dayjs | null, Dayjs | null] | null) =>
        onChange(range?.[0] ? instantOf(range[0], zone) : '', range?.[1] ? instantOf(range[1], zone) : '')
      }
    />
  )
}

/**
 * An operator as the log names it: the name, then the id (DESIGN.md §11), so that two operators whose
 * names look alike are told apart. With `onPickId` the id filters the log by that operator.
 */
export function OperatorName({
  id,
  name,
  onPickId,
}: {
  id: number | null
  name: string | null
  onPickId?: (id: number) => void
}) {
  if (id === null && !name) return <>—</>
  const idText = id === null ? null : `ID ${id}`
  return (
    <span style={{ display: 'inline-flex', alignItems: 'baseline', gap: 6, maxWidth: '100%' }}>
      <Typography.Text ellipsis={{ tooltip: name }} style={{ minWidth: 0 }}>
        {name ?? '—'}
      </Typography.Text>
      {idText &&
        (onPickId ? (
          <Tooltip title="只看此操作人">
            <Typography.Link
              data-testid="operator-id"
              style={{ flex: 'none', fontSize: '0.9em' }}
              onClick={() => onPickId(id!)}
            >
              {idText}
            </Typography.Link>
          </Tooltip>
        ) : (
          <Typography.Text data-testid="operator-id" type="secondary" style={{ flex: 'none' }}>
            {idText}
          </Typography.Text>
        ))}
    </span>
  )
}

/**
 * The record an operation is about, as the server named it then (`用户 张三`, `用户 #12`); a row the
 * server could not name (a route about no record of its own) shows its group and id, if any.
 */
export function resourceText(row: {
  resourceName: string | null
  resourceType: string | null
  resourceId: string | null
}): string {
  if (row.resourceName) return row.resourceName
  if (row.resourceId) return `${row.resourceType ?? ''} #${row.resourceId}`.trim()
  return ''
}
