import { useQuery } from '@tanstack/react-query'
import { Select } from 'antd'
import { useEffect, useState } from 'react'

export interface SearchOption {
  value: number
  label: string
}

interface CommonProps {
  /** the field's id; it also keeps this select's answers apart from another's */
  id: string
  /** the field's name, for screen readers and the placeholder (选择…) */
  label: string
  placeholder?: string
  /** the options for what is typed (trimmed; empty: the first ones) */
  search: (typed: string) => Promise<SearchOption[]>
  /** offered first whatever is typed, and before the server answers (e.g. the signed-in user) */
  first?: SearchOption
}

/** Typing is answered once it pauses, not with one call per key. */
const SEARCH_DELAY_MS = 300

export type SearchSelectProps = CommonProps &
  (
    | { multiple?: false; value?: number; onChange?: (id: number) => void }
    | { multiple: true; value?: number[]; onChange?: (ids: number[]) => void }
  )

/**
 * A select that asks the server as the user types, for lists too long to load whole (users, roles:
 * within the caller's reach, as the server answers), once the typing pauses. The server's answer is
 * the list: nothing is filtered again here (but `first` is not offered twice).
 */
export function SearchSelect({
  id,
  label,
  placeholder,
  search,
  first,
  multiple,
  value,
  onChange,
}: SearchSelectProps) {
  const [typed, setTyped] = useState('')
  const [searched, setSearched] = useState('')
  useEffect(() => {
    const timer = setTimeout(() => setSearched(typed.trim()), SEARCH_DELAY_MS)
    return () => clearTimeout(timer)
  }, [typed])
  const options = useQuery({
    queryKey: ['search-select', id, searched],
    queryFn: () => search(searched),
  })
  const found = options.data ?? []
  return (
    <Select<number | number[]>
      id={id}
      aria-label={label}
      mode={multiple ? 'multiple' : undefined}
      showSearch={{ filterOption: false, onSearch: setTyped }}
      value={value}
      onChange={onChange as (v: number | number[]) => void}
      options={first ? [first, ...found.filter((option) => option.value !== first.value)] : found}
      loading={options.isFetching}
      placeholder={placeholder ?? `选择${label}`}
    />
  )
}
