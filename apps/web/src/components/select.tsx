import { Select as AntSelect, TreeSelect } from 'antd'
import type { ReactNode } from 'react'
import { DEFAULT_SIZE, type WidgetSize } from './size'

type Value = string | number
export type SelectOption = Value | { label: ReactNode; value: Value; disabled?: boolean }

/** A tree option: id and children (SPEC.md §3). */
export interface TreeOption {
  id: Value
  label?: ReactNode
  children?: TreeOption[]
  disabled?: boolean
  [key: string]: unknown
}

/** SPEC.md §9: the tree select's dropdown is at most 200px high. */
export const TREE_SELECT_MAX_HEIGHT = 200

interface CommonProps {
  value?: unknown
  onChange?: (value: any) => void
  onBlur?: () => void
  placeholder?: string
  disabled?: boolean
  /** Controlled dropdown visibility. */
  open?: boolean
  multiple?: boolean
  allowClear?: boolean
  size?: WidgetSize
  id?: string
  status?: '' | 'error' | 'warning'
  style?: React.CSSProperties
  className?: string
  'aria-label'?: string
}

export interface PlainSelectProps extends CommonProps {
  tree?: false
  /** Plain values or {label, value} objects. */
  options: readonly SelectOption[]
  showSearch?: boolean
}

export interface TreeSelectProps extends CommonProps {
  tree: true
  options: readonly TreeOption[]
  /** Field of the label (default 'label'). */
  labelField?: string
}

export type SelectProps = PlainSelectProps | TreeSelectProps

export const normalizeOptions = (options: readonly SelectOption[]) =>
  options.map((o) => (typeof o === 'object' ? o : { label: String(o), value: o }))

/** Select: plain values or {label, value} objects; tree mode (`tree`) with id/children options. */
export function Select(props: SelectProps) {
  const { size = DEFAULT_SIZE, multiple, allowClear = true, ...rest } = props
  if (rest.tree) {
    const { tree: _tree, options, labelField = 'label', ...common } = rest
    return (
      <TreeSelect
        {...common}
        size={size}
        allowClear={allowClear}
        multiple={multiple}
        treeData={options as unknown as Record<string, unknown>[]}
        fieldNames={{ label: labelField, value: 'id', children: 'children' }}
        treeDefaultExpandAll
        listHeight={TREE_SELECT_MAX_HEIGHT}
        styles={{ popup: { root: { maxHeight: TREE_SELECT_MAX_HEIGHT, overflow: 'auto' } } }}
        treeNodeFilterProp={labelField}
        showSearch
      />
    )
  }
  const { tree: _tree, options, showSearch, ...common } = rest
  return (
    <AntSelect
      {...common}
      size={size}
      allowClear={allowClear}
      mode={multiple ? 'multiple' : undefined}
      options={normalizeOptions(options)}
      showSearch={showSearch ? { optionFilterProp: 'label' } : undefined}
    />
  )
}
