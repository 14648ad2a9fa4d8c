import { SettingOutlined } from '@ant-design/icons'
import type { UserListRow } from '@amg/contract'
import { Button, Checkbox, Popover, Tooltip, Typography, type TableColumnsType } from 'antd'
import { OPTIONAL_USER_COLUMNS, type OptionalUserColumn } from './column-settings'

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

/** The optional columns of the user list and their widths (for the table's horizontal scroll). */
export const OPTIONAL_COLUMN_DEFS: Record<
  OptionalUserColumn,
  TableColumnsType<UserListRow>[number] & { width: number }
> = {
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
