import { Table, Typography, type TableColumnType, type TableColumnsType } from 'antd'
import { RECORD_TYPE_LABELS, STATUS_LABEL, USER_STATUS_LABEL } from '@amg/contract'
import { mergeRowSpans } from '../../lib/row-span'

/** A record a change names (DESIGN.md §9): its type, id and name at the time. */
export interface ChangeRef {
  type: string
  id: number | string
  name: string | null
}

/** The record types of the log and their Chinese names (one list with the server's table registry). */
export const RECORD_TYPES: Record<string, string> = RECORD_TYPE_LABELS

/** Chinese labels of the common fields (camelCase column names); others show as they come. */
export const FIELD_LABELS: Record<string, string> = {
  nickName: '用户昵称',
  realName: '真实姓名',
  mobile: '手机号',
  status: '状态',
  password: '密码',
  roleName: '角色名称',
  groupName: '用户组名称',
  description: '描述',
  chName: '中文名',
  enName: '英文名',
  organizationName: '部门名称',
  stationName: '职位名称',
  type: '类型',
  passwordIsInitial: '使用初始密码',
  key: '服务标识',
  name: '名称',
  rootCode: '根权限',
  builtIn: '内置',
  mfa: '两步验证',
  links: '关联',
}

/** Status meanings: users are 正常/冻结, every other record 启用/禁用 (SPEC.md §4). */
const STATUS_LABELS: Record<'user' | 'other', Readonly<Record<string, string>>> = {
  user: USER_STATUS_LABEL,
  other: STATUS_LABEL,
}

const isRef = (value: unknown): value is ChangeRef =>
  typeof value === 'object' && value !== null && 'type' in value && 'id' in value
const refs = (value: unknown): ChangeRef[] => (Array.isArray(value) ? value.filter(isRef) : [])

export const refName = (ref: ChangeRef) => ref.name ?? `#${ref.id}`
export const recordLabel = (ref: ChangeRef) => `${RECORD_TYPES[ref.type] ?? ref.type} ${refName(ref)}`

interface FieldRow {
  key: string
  kind: 'field'
  field: string
  before: unknown
  after: unknown
  target?: ChangeRef
}
interface LinkRow {
  key: string
  kind: 'links'
  added: ChangeRef[]
  removed: ChangeRef[]
  target?: ChangeRef
}
type Row = (FieldRow | LinkRow) & { span: number }

/** The rows of the table from the log's `changes` (anything unexpected is shown, never dropped). */
export function changeRows(changes: readonly Record<string, unknown>[]): Row[] {
  const rows = changes.map((change, i): FieldRow | LinkRow => {
    const target = isRef(change.target) ? change.target : undefined
    if (change.field === 'links')
      return { key: `${i}`, kind: 'links', added: refs(change.added), removed: refs(change.removed), target }
    return {
      key: `${i}`,
      kind: 'field',
      field: String(change.field ?? ''),
      before: change.before,
      after: change.after,
      target,
    }
  })
  const spans = mergeRowSpans(rows.map((r) => (r.target ? `${r.target.type}:${r.target.id}` : '')))
  return rows.map((row, i) => ({ ...row, span: spans[i] }))
}

function fieldLabel(row: Row) {
  if (row.kind === 'field') return FIELD_LABELS[row.field] ?? row.field
  const types = new Set([...row.added, ...row.removed].map((r) => r.type))
  const only = types.size === 1 ? RECORD_TYPES[[...types][0]] : undefined
  return only ? `关联${only}` : '关联'
}

function FieldValue({ row, value }: { row: FieldRow; value: unknown }) {
  if (value === null || value === undefined || value === '')
    // a password's old value is never kept: only that it changed
    return <Typography.Text type="secondary">{row.field === 'password' ? '—' : '（空）'}</Typography.Text>
  if (row.field === 'passwordIsInitial' && (value === 0 || value === 1 || typeof value === 'boolean'))
    return <span>{value === 1 || value === true ? '是' : '否'}</span>
  if (row.field === 'status' && (typeof value === 'number' || typeof value === 'string')) {
    const labels = STATUS_LABELS[row.target?.type === 'user' ? 'user' : 'other']
    const label = labels[String(value)]
    return <span>{label ? `${label}（${value}）` : String(value)}</span>
  }
  return <span>{typeof value === 'object' ? JSON.stringify(value) : String(value)}</span>
}

function LinkItems({ items, sign }: { items: ChangeRef[]; sign: '+' | '-' }) {
  if (items.length === 0) return <Typography.Text type="secondary">—</Typography.Text>
  return (
    <div>
      {items.map((item) => (
        <div key={`${item.type}:${item.id}`} title={`${RECORD_TYPES[item.type] ?? item.type} #${item.id}`}>
          <Typography.Text type={sign === '+' ? 'success' : 'danger'}>
            {sign} {refName(item)}
          </Typography.Text>
        </div>
      ))}
    </div>
  )
}

/** 修改前 and 修改后: a field's value before and after; the links removed ("-") and added ("+"). */
const SIDES = {
  before: { title: '修改前', links: 'removed', sign: '-' },
  after: { title: '修改后', links: 'added', sign: '+' },
} as const

function sideColumn(side: keyof typeof SIDES): TableColumnType<Row> {
  const { title, links, sign } = SIDES[side]
  return {
    title,
    key: side,
    render: (_, row) =>
      row.kind === 'links' ? (
        <LinkItems items={row[links]} sign={sign} />
      ) : (
        <FieldValue row={row} value={row[side]} />
      ),
  }
}

/**
 * The changes of one operation (DESIGN.md §9) as 字段 / 修改前 / 修改后: a field's before and after
 * (a password only as 已修改), and for links the removed items ("- 名称") before and the added
 * ones ("+ 名称") after. The record each change is about leads the rows that belong to it.
 */
export function ChangesTable({ changes }: { changes: readonly Record<string, unknown>[] }) {
  const rows = changeRows(changes)
  const withTargets = rows.some((r) => r.target)
  const columns: TableColumnsType<Row> = [
    ...(withTargets
      ? [
          {
            title: '记录',
            key: 'target',
            width: 160,
            onCell: (row: Row) => ({ rowSpan: row.span }),
            render: (_: unknown, row: Row) => (row.target ? recordLabel(row.target) : ''),
          },
        ]
      : []),
    {
      title: '字段',
      key: 'field',
      width: 140,
      render: (_, row) => <span title={row.kind === 'field' ? row.field : 'links'}>{fieldLabel(row)}</span>,
    },
    sideColumn('before'),
    sideColumn('after'),
  ]
  return (
    <Table<Row>
      rowKey="key"
      size="small"
      bordered
      data-testid="changes-table"
      columns={columns}
      dataSource={rows}
      pagination={false}
      // a phone's drawer scrolls the table sideways rather than breaking 修改前 over two lines
      scroll={{ x: 520 }}
      locale={{ emptyText: '没有字段变更' }}
    />
  )
}
