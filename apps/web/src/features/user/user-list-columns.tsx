import { SettingOutlined } from '@ant-design/icons'
import type { UserListRow } from '@amg/contract'
import {
  Button,
  Checkbox,
  Descriptions,
  Popover,
  Space,
  Tag,
  Tooltip,
  Typography,
  type TableColumnsType,
} from 'antd'
import type { ReactNode } from 'react'
import { OPTIONAL_USER_COLUMNS, type OptionalUserColumn } from './column-settings'
import { formatDateTime } from './common'
import { MfaCell } from './reset-mfa'

/** How many of a user's positions or roles a cell names before '等 N 个'. */
const NAMES_IN_CELL = 2

/** '研发中心-工程师、市场部-销售 等 5 个', all of them in the tooltip. */
export function NamesCell({ names }: { names: readonly string[] }) {
  if (names.length === 0) return <Typography.Text type="secondary">—</Typography.Text>
  const text =
    names.length > NAMES_IN_CELL
      ? `${names.slice(0, NAMES_IN_CELL).join('、')} 等 ${names.length} 个`
      : names.join('、')
  return (
    <Tooltip title={names.join('、')}>
      <span>{text}</span>
    </Tooltip>
  )
}

const dash = (value: string | null) => value || <Typography.Text type="secondary">—</Typography.Text>

type UserColumn = TableColumnsType<UserListRow>[number] & { width: number }

/** The optional columns of the user list and their widths (for the table's horizontal scroll). */
export const OPTIONAL_COLUMN_DEFS: Record<OptionalUserColumn, UserColumn> = {
  realName: { title: '姓名', dataIndex: 'realName', width: 90, render: dash },
  mobile: { title: '手机号', dataIndex: 'mobile', width: 115, render: dash },
  positions: {
    title: '部门/岗位',
    dataIndex: 'positions',
    width: 180,
    ellipsis: { showTitle: false },
    // DESIGN.md §13: positions in departments outside the caller's scope are only counted
    render: (names: string[], row) =>
      row.hiddenPositions ? (
        <>
          <NamesCell names={names} />
          <Typography.Text type="secondary" data-testid="hidden-positions" style={{ display: 'block' }}>
            {`另有 ${row.hiddenPositions} 个岗位不可见`}
          </Typography.Text>
        </>
      ) : (
        <NamesCell names={names} />
      ),
  },
  roles: {
    title: '角色',
    dataIndex: 'roles',
    width: 120,
    ellipsis: { showTitle: false },
    render: (names: string[]) => <NamesCell names={names} />,
  },
  // DESIGN.md §14: who signs in with a second factor
  mfaEnabled: {
    title: '两步验证',
    dataIndex: 'mfaEnabled',
    width: 90,
    render: (on?: boolean) => <MfaCell enabled={on} />,
  },
  // the date over the time: two narrow lines
  createTime: { title: '创建时间', dataIndex: 'createTime', width: 100, render: formatDateTime },
  updateTime: { title: '更新时间', dataIndex: 'updateTime', width: 100, render: formatDateTime },
  // DESIGN.md §22: a directory's users keep their name and fields there
  source: {
    title: '来源',
    dataIndex: 'source',
    width: 70,
    render: (source?: string) => SOURCE_TEXT[source ?? 'local'] ?? source,
  },
}

const SOURCE_TEXT: Record<string, string> = { local: '本地', ldap: 'LDAP', scim: 'SCIM' }

/** The row selection's column. */
export const SELECTION_WIDTH = 40

/**
 * The user list's columns: 用户昵称, the optional ones chosen in 列设置 (姓名, 手机号, 部门/岗位, 角色),
 * 状态, the later optional ones (两步验证, the times), and 操作 fixed on the right, with the width the
 * table needs (the sum: a wider window spreads them, a narrower one scrolls sideways). On a phone only
 * 用户昵称, 状态 and 操作: the rest is in the row's expansion (`UserRowDetails`).
 */
export function userColumns({
  shown,
  narrow,
  status,
  actions,
  actionsWidth,
}: {
  shown: readonly OptionalUserColumn[]
  narrow: boolean
  status: (row: UserListRow) => ReactNode
  actions: (row: UserListRow) => ReactNode
  actionsWidth: number
}): { columns: UserColumn[]; width: number } {
  const pick = (after: boolean) =>
    OPTIONAL_USER_COLUMNS.filter(
      (c) => !narrow && Boolean('after' in c && c.after) === after && shown.includes(c.key),
    ).map((c) => OPTIONAL_COLUMN_DEFS[c.key])
  const columns: UserColumn[] = [
    {
      title: '用户昵称',
      dataIndex: 'nickName',
      width: narrow ? 96 : 120,
      ellipsis: narrow,
      // a machine client's service account (DESIGN.md §16): no password, never signs in; a directory's
      // user (§22): its name and fields are changed there
      render: (nickName: string, row) => {
        const directory =
          row.source && row.source !== 'local' ? (SOURCE_TEXT[row.source] ?? row.source) : null
        if (!row.serviceAccount && !directory) return nickName
        return (
          <Space size={4} wrap>
            {nickName}
            {row.serviceAccount && (
              <Tag color="purple" style={{ marginInlineEnd: 0 }}>
                服务账号
              </Tag>
            )}
            {directory && (
              <Tag color="blue" style={{ marginInlineEnd: 0 }} data-testid="user-source-tag">
                {directory}
              </Tag>
            )}
          </Space>
        )
      },
    },
    ...pick(false),
    { title: '状态', dataIndex: 'status', width: narrow ? 64 : 80, render: (_: number, row) => status(row) },
    ...pick(true),
    {
      title: '操作',
      key: 'actions',
      width: actionsWidth,
      fixed: narrow ? undefined : 'right',
      render: (_: unknown, row) => actions(row),
    },
  ]
  return { columns, width: columns.reduce((sum, c) => sum + c.width, 0) }
}

/** A row's expansion on a phone: what its hidden columns would show. */
export function UserRowDetails({ row }: { row: UserListRow }) {
  return (
    <Descriptions
      size="small"
      column={1}
      data-testid="user-row-details"
      items={OPTIONAL_USER_COLUMNS.map((c) => {
        const def = OPTIONAL_COLUMN_DEFS[c.key]
        const value = row[c.key as keyof UserListRow]
        return {
          key: c.key,
          label: c.title,
          children: (def.render ? def.render(value, row, 0) : value) as ReactNode,
        }
      })}
    />
  )
}

/** The toolbar's 列设置 popover: which optional columns show. */
export function ColumnSettings({
  shown,
  onChange,
}: {
  shown: OptionalUserColumn[]
  onChange: (next: OptionalUserColumn[]) => void
}) {
  return (
    <Popover
      trigger="click"
      placement="bottomRight"
      title="显示的列"
      content={
        <Checkbox.Group
          style={{ display: 'flex', flexDirection: 'column', gap: 6 }}
          value={shown}
          onChange={(keys) => onChange(keys as OptionalUserColumn[])}
          options={OPTIONAL_USER_COLUMNS.map((c) => ({ value: c.key, label: c.title }))}
        />
      }
    >
      <Button icon={<SettingOutlined />} aria-label="列设置">
        列设置
      </Button>
    </Popover>
  )
}
