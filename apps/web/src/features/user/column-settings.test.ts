import { afterEach, describe, expect, it } from 'vitest'
import { USER_COLUMNS_STORAGE_KEY, readUserColumns, writeUserColumns } from './column-settings'

afterEach(() => window.localStorage.clear())

describe('user list column settings', () => {
  it('shows every optional column until the browser chose', () => {
    expect(readUserColumns()).toEqual(['realName', 'mobile', 'positions', 'roles'])
  })

  it('remembers the choice, in the table order', () => {
    writeUserColumns(['roles', 'mobile'])
    expect(readUserColumns()).toEqual(['mobile', 'roles'])
    writeUserColumns([])
    expect(readUserColumns()).toEqual([])
  })

  it('ignores what it cannot read', () => {
    window.localStorage.setItem(USER_COLUMNS_STORAGE_KEY, '{not json')
    expect(readUserColumns()).toHaveLength(4)
    window.localStorage.setItem(USER_COLUMNS_STORAGE_KEY, JSON.stringify(['password', 'mobile']))
    expect(readUserColumns()).toEqual(['mobile'])
  })
})
