import { Button } from 'antd'
import type { ReactNode } from 'react'
import { useDraft, type FilterKind, type ListFilters, type ListState } from '../lib/list-state'
import { ListQueryBar } from './list-query-bar'

/** The names of a list's text filters (the ones a search box can fill). */
type TextFilter<S extends Record<string, FilterKind>> = {
  [Key in keyof S]: S[Key] extends 'text' ? Key : never
}[keyof S] &
  string

/**
 * The search bar of a list searched by one box bound to one of its text filters: the box holds a
 * draft that 查询 applies. 新建 (when `onAdd` is given: a user who may add) and the screen's other
 * buttons follow 查询 and 重置.
 */
export function FilterSearchBar<S extends Record<string, FilterKind>>({
  list,
  filter,
  onAdd,
  children,
  ...box
}: {
  list: ListState<S>
  filter: TextFilter<S>
  placeholder: string
  /** the box's accessible name (the placeholder when left out) */
  label?: string
  onAdd?: () => void
  /** buttons after 新建 */
  children?: ReactNode
}) {
  const [draft, setDraft] = useDraft(list.filters[filter] as string)
  const actions =
    onAdd || children ? (
      <>
        {onAdd ? (
          <Button type="primary" onClick={onAdd}>
            新建
          </Button>
        ) : null}
        {children}
      </>
    ) : null
  return (
    <ListQueryBar
      {...box}
      value={draft}
      onChange={setDraft}
      onSearch={(text) => list.setFilters({ [filter]: text } as Partial<ListFilters<S>>)}
    >
      {actions}
    </ListQueryBar>
  )
}
