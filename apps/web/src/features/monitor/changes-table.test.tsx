import { describe, expect, it } from 'vitest'
import { render, screen, within } from '@testing-library/react'
import { ChangesTable, changeRows } from './changes-table'

/** The body rows of the changes table, each as its cells' texts. */
function bodyRows() {
  const table = screen.getByTestId('changes-table')
  return within(table)
    .getAllByRole('row')
    .filter((row) => row.closest('tbody'))
    .map((row) =>
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent ?? ''),
    )
}

const headers = () =>
  within(screen.getByTestId('changes-table'))
    .getAllByRole('columnheader')
    .map((h) => h.textContent)

const alice = { type: 'user', id: 7, name: 'alice' }

describe('ChangesTable (DESIGN.md §9)', () => {
  it('shows each changed field as 字段 / 修改前 / 修改后 with Chinese labels for the common fields', () => {
    render(
      <ChangesTable
        changes={[
          { field: 'nickName', before: 'alice', after: 'alice2', target: alice },
          { field: 'realName', before: null, after: '张三', target: alice },
          { field: 'status', before: 1, after: 2, target: alice },
          { field: 'someNewColumn', before: 'x', after: { deep: true }, target: alice },
        ]}
      />,
    )
    expect(headers()).toEqual(['记录', '字段', '修改前', '修改后'])
    const rows = bodyRows()
    // the record leads its rows once (merged cell), then field, before, after
    expect(rows[0]).toEqual(['用户 alice', '用户昵称', 'alice', 'alice2'])
    expect(rows[1]).toEqual(['真实姓名', '（空）', '张三'])
    expect(rows[2]).toEqual(['状态', '正常（1）', '冻结（2）'])
    // an unknown field shows as it comes, an object value as JSON
    expect(rows[3]).toEqual(['someNewColumn', 'x', '{"deep":true}'])
  })

  it('shows a password change only as 已修改, never a value before', () => {
    render(
      <ChangesTable
        changes={[
          { field: 'password', before: null, after: '已修改', target: alice },
          { field: 'passwordIsInitial', before: 1, after: 0, target: alice },
        ]}
      />,
    )
    expect(bodyRows()).toEqual([
      ['用户 alice', '密码', '—', '已修改'],
      ['使用初始密码', '是', '否'],
    ])
  })

  it('shows link changes as 关联 rows: removed items "- 名称" before, added items "+ 名称" after', () => {
    render(
      <ChangesTable
        changes={[
          {
            field: 'links',
            target: { type: 'group', id: 3, name: '财务组' },
            added: [
              { type: 'role', id: 1, name: '审计员' },
              { type: 'role', id: 2, name: null },
            ],
            removed: [{ type: 'role', id: 5, name: '出纳' }],
          },
          {
            field: 'links',
            target: { type: 'user', id: 9, name: 'bob' },
            added: [
              { type: 'role', id: 1, name: '审计员' },
              { type: 'group', id: 3, name: '财务组' },
            ],
            removed: [],
          },
        ]}
      />,
    )
    const rows = bodyRows()
    // one type linked: the field names it; a nameless item shows its id
    expect(rows[0]).toEqual(['用户组 财务组', '关联角色', '- 出纳', '+ 审计员+ #2'])
    expect(screen.getByText('- 出纳')).toBeInTheDocument()
    expect(screen.getByText('+ #2')).toBeInTheDocument()
    // mixed types: plain 关联; nothing removed shows a dash
    expect(rows[1]).toEqual(['用户 bob', '关联', '—', '+ 审计员+ 财务组'])
  })

  it('leaves out the record column when no change names its record, and says when nothing changed', () => {
    const { unmount } = render(<ChangesTable changes={[{ field: 'description', before: 'a', after: 'b' }]} />)
    expect(headers()).toEqual(['字段', '修改前', '修改后'])
    expect(bodyRows()).toEqual([['描述', 'a', 'b']])
    unmount()
    render(<ChangesTable changes={[]} />)
    expect(screen.getByText('没有字段变更')).toBeInTheDocument()
  })

  it('merges the record cell over the consecutive rows of one record', () => {
    const bob = { type: 'user', id: 9, name: 'bob' }
    const rows = changeRows([
      { field: 'nickName', before: 'a', after: 'b', target: alice },
      { field: 'mobile', before: null, after: '13800000000', target: alice },
      { field: 'nickName', before: 'c', after: 'd', target: bob },
    ])
    expect(rows.map((r) => r.span)).toEqual([2, 0, 1])
  })
})
