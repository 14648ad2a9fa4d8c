import { afterEach, describe, expect, it } from 'vitest'
import { USER_COLUMNS_STORAGE_KEY, readUserColumns, writeUserColumns } from './column-settings'

afterEach(() => window.localStorage.clear())

describe('user list column settings', () => {
  it('shows the columns that matter first until the browser chose; the times wait in 列设置', () => {
    // 来源 (DESIGN.md §22) shows by default: whose fields are the directory's
    expect(readUserColumns()).toEqual(['realName', 'positions', 'roles'])
  })

  it('remembers the choice, in the table order', () => {
    writeUserColumns(['updateTime', 'roles', 'mobile'])
    expect(readUserColumns()).toEqual(['mobile', 'roles', 'updateTime'])
    writeUserColumns([])
    expect(readUserColumns()).toEqual([])
  })

  it('ignores what it cannot read', () => {
    window.localStorage.setItem(USER_COLUMNS_STORAGE_KEY, '{not json')
    expect(readUserColumns()).toHaveLength(3)
    window.localStorage.setItem(USER_COLUMNS_STORAGE_KEY, JSON.stringify(['password', 'mobile']))
    expect(readUserColumns()).toEqual(['mobile'])
  })
})
