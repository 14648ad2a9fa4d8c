import { render, screen } from '@testing-library/react'
import type { UserListRow } from '@amg/contract'
import { describe, expect, it } from 'vitest'
import { OPTIONAL_COLUMN_DEFS } from './user-list-columns'

const row = (extra: Partial<UserListRow>): UserListRow => ({
  id: 1,
  nickName: 'u1',
  realName: null,
  mobile: null,
  status: 1,
  serviceAccount: false,
  createTime: '2026-01-01 00:00:00',
  updateTime: '2026-01-01 00:00:00',
  positions: ['研发中心-工程师'],
  roles: [],
  ...extra,
})

const cell = (r: UserListRow) => {
  const renderCell = OPTIONAL_COLUMN_DEFS.positions.render!
  return render(<div>{renderCell(r.positions, r, 0) as React.ReactNode}</div>)
}

describe('the user list 部门/岗位 cell (DESIGN.md §13)', () => {
  it("counts the positions outside the caller's scope after those listed", () => {
    cell(row({ hiddenPositions: 2 }))
    expect(screen.getByText('研发中心-工程师')).toBeVisible()
    expect(screen.getByText('另有 2 个岗位不可见')).toBeVisible()
  })

  it('says nothing more when none are hidden', () => {
    cell(row({ hiddenPositions: 0 }))
    cell(row({}))
    expect(screen.queryByText(/岗位不可见/)).toBeNull()
  })
})
