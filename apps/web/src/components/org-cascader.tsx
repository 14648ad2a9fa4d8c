import { Cascader, theme } from 'antd'
import { useMemo, useState } from 'react'
import { ORG_SEARCH_LIMIT, type OrgLevelNode, type OrgSearchHit } from '@amg/contract'
import {
  ORG_SEARCH_DELAY_MS,
  useDebounced,
  useOrgPath,
  useOrgPickerLevels,
  useOrgSearch,
} from './org-picker-levels'

/** A department as the cascader needs it. */
export type OrgCascaderNode = Pick<OrgLevelNode, 'id' | 'organizationName'> & {
  childCount?: number
  children?: OrgCascaderNode[]
}

export interface OrgCascaderOption {
  value: number
  label: string
  /** the bare department name, shown in the field once chosen */
  name: string
  /** a department without children ends the menu; others open on demand (loadData) */
  isLeaf?: boolean
  /** in a search's options: a department found (not only on a found one's path) */
  hit?: boolean
  /** outside the caller's data scope: greyed, opened to reach the departments below, never chosen */
  outside?: boolean
  children?: OrgCascaderOption[]
}

/** The option label: the department name and its number of direct sub-departments, '研发中心 (3)'. */
export const orgOptionLabel = (node: OrgCascaderNode) =>
  `${node.organizationName} (${node.childCount ?? node.children?.length ?? 0})`

/** Loaded levels as cascader options: each department's children once its level is read. */
export function levelOptions(
  nodes: readonly OrgLevelNode[],
  childrenOf: ReadonlyMap<number, readonly OrgLevelNode[]>,
): OrgCascaderOption[] {
  return nodes.map((node) => {
    const kids = node.hasChildren ? childrenOf.get(node.id) : undefined
    return {
      value: node.id,
      label: orgOptionLabel(node),
      name: node.organizationName,
      isLeaf: !node.hasChildren,
      ...(node.inScope === false ? { outside: true } : {}),
      children: kids ? levelOptions(kids, childrenOf) : undefined,
    }
  })
}

/** A search's options: each hit under its path from the root (shared paths once), the hits marked. */
export function searchOptions(hits: readonly OrgSearchHit[]): OrgCascaderOption[] {
  const byId = new Map<number, OrgCascaderOption>()
  const roots: OrgCascaderOption[] = []
  const place = (id: number, name: string, parent: number | null, inScope?: boolean): OrgCascaderOption => {
    let option = byId.get(id)
    if (!option) {
      option = { value: id, label: name, name, isLeaf: true, ...(inScope === false ? { outside: true } : {}) }
      byId.set(id, option)
      const above = parent === null ? undefined : byId.get(parent)
      if (above) (above.children ??= []).push(option)
      else roots.push(option)
      if (above) above.isLeaf = false
    }
    return option
  }
  for (const hit of hits) {
    hit.path.forEach((step, i) =>
      place(step.id, step.organizationName, i ? hit.path[i - 1].id : null, step.inScope),
    )
    const option = place(hit.id, hit.organizationName, hit.path.at(-1)?.id ?? null, hit.inScope)
    Object.assign(option, { label: orgOptionLabel(hit), hit: true })
  }
  return roots
}

export interface OrgCascaderProps {
  /** the chosen department id */
  value?: number
  /** the chosen department (any level), or undefined when cleared */
  onChange?: (orgId?: number) => void
  placeholder?: string
  style?: React.CSSProperties
  disabled?: boolean
  'aria-label'?: string
}

/**
 * Department cascader (SPEC.md §2): any level can be chosen (changeOnSelect), each option shows its
 * number of sub-departments, the choice is reported as the department's id. It reads the tree level
 * by level (a department's children as it is opened, the chosen one's path), and its search asks the
 * server, listing each department found with its path.
 */
export function OrgCascader({
  value,
  onChange,
  placeholder = '请选择部门',
  style,
  disabled,
  ...rest
}: OrgCascaderProps) {
  const { token } = theme.useToken()
  const chosen = useOrgPath(value).hit
  const levels = useOrgPickerLevels(useMemo(() => chosen?.path.map((s) => s.id) ?? [], [chosen]))
  const [search, setSearch] = useState('')
  const text = useDebounced(search.trim(), ORG_SEARCH_DELAY_MS)
  const found = useOrgSearch(text)
  const searching = search.trim() !== ''

  const options = useMemo(
    () =>
      searching
        ? text && found.data
          ? searchOptions(found.data)
          : []
        : levelOptions(levels.roots, levels.childrenOf),
    [searching, text, found.data, levels.roots, levels.childrenOf],
  )
  // what was just picked shows at once, before the server's path of it arrives
  const [picked, setPicked] = useState<{ ids: number[]; names: string[] } | null>(null)
  const mine = picked && value !== undefined && picked.ids.at(-1) === value ? picked : null
  const path = chosen ? [...chosen.path.map((s) => s.id), chosen.id] : (mine?.ids ?? [])
  const names = chosen
    ? [...chosen.path.map((s) => s.organizationName), chosen.organizationName]
    : (mine?.names ?? [])

  return (
    <Cascader<OrgCascaderOption>
      aria-label={rest['aria-label']}
      data-testid="org-cascader"
      options={options}
      value={path.length ? path : undefined}
      changeOnSelect
      allowClear
      showSearch={{
        searchValue: search,
        onSearch: setSearch,
        // the server has searched: list the departments it found, each under its path
        filter: (_input, found) => found.at(-1)?.hit === true,
        render: (_input, found) =>
          found.map((o, i) => (i === found.length - 1 ? o.label : o.name)).join(' / '),
        // every hit the server sends (rc-cascader warns on `false` though it documents it)
        limit: ORG_SEARCH_LIMIT,
      }}
      loadData={(selected) => {
        const last = selected.at(-1)
        if (last) void levels.load(last.value)
      }}
      expandTrigger="click"
      displayRender={(labels, selected) =>
        labels.map((label, i) => selected?.[i]?.name ?? names[i] ?? label).join(' / ')
      }
      placeholder={placeholder}
      loading={levels.loading || (searching && (text !== search.trim() || found.isFetching))}
      disabled={disabled}
      style={{ width: 260, ...style }}
      optionRender={(option) =>
        option.outside ? (
          <span data-outside-scope style={{ color: token.colorTextDisabled }}>
            {option.label}
          </span>
        ) : (
          option.label
        )
      }
      onChange={(ids, selected) => {
        // a department outside the scope only opens the way to those below it (changeOnSelect)
        if (selected?.at(-1)?.outside) return
        const list = (ids ?? []) as number[]
        setPicked({ ids: list, names: (selected ?? []).map((o) => o.name) })
        setSearch('')
        onChange?.(list.length ? list[list.length - 1] : undefined)
      }}
    />
  )
}
