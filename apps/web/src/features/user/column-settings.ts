import { useState } from 'react'

/** The user list's optional columns; SPEC.md's columns always show. */
export const OPTIONAL_USER_COLUMNS = [
  { key: 'realName', title: '姓名' },
  { key: 'mobile', title: '手机号' },
  { key: 'positions', title: '部门/岗位' },
  { key: 'roles', title: '角色' },
] as const
export type OptionalUserColumn = (typeof OPTIONAL_USER_COLUMNS)[number]['key']

const ALL_OPTIONAL: OptionalUserColumn[] = OPTIONAL_USER_COLUMNS.map((c) => c.key)

/** Local storage key: the optional columns this browser shows (as lib/menu-memory.ts keeps the menu). */
export const USER_COLUMNS_STORAGE_KEY = 'amg.user-list-columns'

/** What this browser chose last, else every optional column; unknown names are dropped. */
export function readUserColumns(): OptionalUserColumn[] {
  try {
    const stored = window.localStorage.getItem(USER_COLUMNS_STORAGE_KEY)
    if (stored === null) return ALL_OPTIONAL
    const parsed: unknown = JSON.parse(stored)
    if (!Array.isArray(parsed)) return ALL_OPTIONAL
    return ALL_OPTIONAL.filter((key) => parsed.includes(key))
  } catch {
    return ALL_OPTIONAL
  }
}

export function writeUserColumns(columns: readonly OptionalUserColumn[]) {
  try {
    window.localStorage.setItem(USER_COLUMNS_STORAGE_KEY, JSON.stringify(columns))
  } catch {
    // storage unavailable (private mode): the choice lasts for this page only
  }
}

/** The optional columns shown, remembered in this browser. */
export function useUserColumns() {
  const [shown, setShown] = useState<OptionalUserColumn[]>(readUserColumns)
  const change = (next: OptionalUserColumn[]) => {
    const ordered = ALL_OPTIONAL.filter((key) => next.includes(key))
    setShown(ordered)
    writeUserColumns(ordered)
  }
  return { shown, change }
}
