import { useQuery } from '@tanstack/react-query'
import { Select } from 'antd'
import { useState } from 'react'

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
}

export type SearchSelectProps = CommonProps &
  (
    | { multiple?: false; value?: number; onChange?: (id: number) => void }
    | { multiple: true; value?: number[]; onChange?: (ids: number[]) => void }
  )

/**
 * A select that asks the server as the user types, for lists too long to load whole (users, roles:
 * within the caller's reach, as the server answers). The server's answer is the list: nothing is
 * filtered again here.
 */
export function SearchSelect({
  id,
  label,
  placeholder,
  search,
  multiple,
  value,
  onChange,
}: SearchSelectProps) {
  const [typed, setTyped] = useState('')
  const options = useQuery({
    queryKey: ['search-select', id, typed.trim()],
    queryFn: () => search(typed.trim()),
  })
  return (
    <Select<number | number[]>
      id={id}
      aria-label={label}
      mode={multiple ? 'multiple' : undefined}
      showSearch={{ filterOption: false, onSearch: setTyped }}
      value={value}
      onChange={onChange as (v: number | number[]) => void}
      options={options.data ?? []}
      placeholder={placeholder ?? `选择${label}`}
    />
  )
}
