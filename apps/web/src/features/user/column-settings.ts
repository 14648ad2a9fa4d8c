import { useState } from 'react'

/**
 * The user list's columns that 列设置 shows or hides, in the table's order; 用户昵称, 状态 and 操作 always
 * show. The first ones follow 用户昵称, the `after` ones follow 状态 (the times last).
 */
export const OPTIONAL_USER_COLUMNS = [
  { key: 'realName', title: '姓名', shown: true },
  { key: 'mobile', title: '手机号', shown: false },
  { key: 'positions', title: '部门/岗位', shown: true },
  { key: 'roles', title: '角色', shown: true },
  // DESIGN.md §22: where the user comes from (本地, LDAP, SCIM); a directory's users are also tagged
  // beside their name, so the column waits here and the default ones still fit 1280 px
  { key: 'source', title: '来源', shown: false, after: true },
  { key: 'mfaEnabled', title: '两步验证', shown: false, after: true },
  { key: 'createTime', title: '创建时间', shown: false, after: true },
  { key: 'updateTime', title: '更新时间', shown: false, after: true },
] as const
export type OptionalUserColumn = (typeof OPTIONAL_USER_COLUMNS)[number]['key']

const ALL_OPTIONAL: OptionalUserColumn[] = OPTIONAL_USER_COLUMNS.map((c) => c.key)
/** What shows until the browser chose: what fits a 1280 px window beside the menu and the tree. */
export const DEFAULT_USER_COLUMNS: OptionalUserColumn[] = OPTIONAL_USER_COLUMNS.filter((c) => c.shown).map(
  (c) => c.key,
)

/**
 * Local storage key: the optional columns this browser shows (as lib/menu-memory.ts keeps the menu).
 * Versioned: a choice made among the earlier, fewer columns would hide the times without being asked.
 */
export const USER_COLUMNS_STORAGE_KEY = 'amg.user-list-columns.v2'

/** What this browser chose last, else the default columns; unknown names are dropped. */
export function readUserColumns(): OptionalUserColumn[] {
  try {
    const stored = window.localStorage.getItem(USER_COLUMNS_STORAGE_KEY)
    if (stored === null) return DEFAULT_USER_COLUMNS
    const parsed: unknown = JSON.parse(stored)
    if (!Array.isArray(parsed)) return DEFAULT_USER_COLUMNS
    return ALL_OPTIONAL.filter((key) => parsed.includes(key))
  } catch {
    return DEFAULT_USER_COLUMNS
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
