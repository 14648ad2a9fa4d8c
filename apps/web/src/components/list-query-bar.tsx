import { SearchOutlined, UndoOutlined } from '@ant-design/icons'
import { Button, Input, Select } from 'antd'
import type { ReactNode } from 'react'
import { useSession } from '../lib/session-store'

/** One field of a list's search bar (a box, a select, a picker) filling its cell. */
export interface QueryField {
  key: string
  node: ReactNode
  /** the cell's width on a wide window (a phone gives every field the whole width) */
  width?: number
}

/**
 * A text filter of a bar with several fields: its label is the placeholder and the accessible name,
 * Enter searches, the clear button empties it.
 */
export function textField(
  key: string,
  label: string,
  value: string | undefined,
  onChange: (value: string) => void,
  onSearch: () => void,
  options: { width?: number; placeholder?: string } = {},
): QueryField {
  return {
    key,
    width: options.width,
    node: (
      <Input
        allowClear
        placeholder={options.placeholder ?? label}
        aria-label={label}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        onPressEnter={onSearch}
      />
    ),
  }
}

/**
 * A choice filter of a bar with several fields: its label is the accessible name (and the
 * placeholder unless one is given), the clear button lifts it.
 */
export function selectField<V extends string | number>(
  key: string,
  label: string,
  value: V | undefined,
  onChange: (value: V | undefined) => void,
  choices: { value: V; label: string }[],
  options: { width?: number; placeholder?: string } = {},
): QueryField {
  return {
    key,
    width: options.width,
    node: (
      <Select<V>
        allowClear
        placeholder={options.placeholder ?? label}
        aria-label={label}
        value={value}
        onChange={(chosen?: V) => onChange(chosen)}
        options={choices}
        style={{ width: '100%' }}
      />
    ),
  }
}

/** The single search box most lists have; 查询 applies it trimmed, 重置 empties it (and applies that). */
interface SearchBoxProps {
  placeholder: string
  /** the box's accessible name (the placeholder when left out) */
  label?: string
  value: string
  onChange: (value: string) => void
  /** the trimmed text */
  onSearch: (value: string) => void
  /** what 重置 does besides emptying the box (the list's other filters) */
  onReset?: () => void
  fields?: undefined
}

/** A list with several filters: its fields, applied by 查询, all emptied by 重置. */
interface FieldsProps {
  fields: QueryField[]
  onSearch: () => void
  onReset: () => void
}

export type ListQueryBarProps = (SearchBoxProps | FieldsProps) & {
  /** the screen's own buttons (新建, 导入, 导出, 列设置), after 查询 and 重置 */
  children?: ReactNode
}

/**
 * The search bar of every list, one look everywhere: the filters, then 查询 (the bar's main button,
 * also Enter in a box) and 重置 side by side, then the screen's own buttons, pushed to the right on a
 * wide window. On a phone each field takes the whole width and the buttons wrap under it, nothing is
 * cut off at the edge.
 */
export function ListQueryBar(props: ListQueryBarProps) {
  const mobile = useSession((s) => s.device) === 'mobile'
  const box = props.fields === undefined ? props : null
  const search = box ? () => box.onSearch(box.value.trim()) : (props as FieldsProps).onSearch
  const reset = box
    ? () => {
        box.onChange('')
        if (box.onReset) box.onReset()
        else box.onSearch('')
      }
    : props.onReset
  const fields: QueryField[] = box
    ? [
        {
          key: 'keyword',
          width: 240,
          node: (
            <Input
              allowClear
              placeholder={box.placeholder}
              aria-label={box.label ?? box.placeholder}
              value={box.value}
              onChange={(e) => box.onChange(e.target.value)}
              onPressEnter={search}
            />
          ),
        },
      ]
    : (props as FieldsProps).fields
  const buttons = (
    <div style={{ display: 'flex', gap: 8, flex: 'none' }} data-testid="list-query-buttons">
      <Button type="primary" icon={<SearchOutlined />} onClick={search}>
        查询
      </Button>
      <Button icon={<UndoOutlined />} onClick={reset}>
        重置
      </Button>
    </div>
  )
  // a phone keeps one box and its two buttons on one line; several fields each take a line
  const oneLine = mobile && fields.length === 1
  return (
    <div
      data-testid="list-search-bar"
      style={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 8, marginBottom: 16 }}
    >
      {oneLine ? (
        <div style={{ display: 'flex', gap: 8, width: '100%' }}>
          <div style={{ flex: 'auto', minWidth: 0 }}>{fields[0].node}</div>
          {buttons}
        </div>
      ) : (
        <>
          {fields.map((field) => (
            <div key={field.key} style={{ width: mobile ? '100%' : (field.width ?? 200) }}>
              {field.node}
            </div>
          ))}
          {buttons}
        </>
      )}
      {props.children ? (
        <div
          data-testid="list-actions"
          style={{ display: 'flex', flexWrap: 'wrap', gap: 8, marginLeft: mobile ? undefined : 'auto' }}
        >
          {props.children}
        </div>
      ) : null}
    </div>
  )
}
