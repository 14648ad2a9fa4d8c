import { useQuery } from '@tanstack/react-query'
import { Descriptions } from 'antd'
import { useMemo } from 'react'
import {
  dataScopeLabel,
  deptTree,
  scopeLineText,
  scopeRoots,
  type AuthzExplainResult,
  type DataScope,
} from '@amg/contract'
import { ORG_TREE_KEY } from '../../lib/org-parts'
import { useOrgStore, type Org } from '../../lib/stores/org-store'

/** Each department's parent and name, from the department tree. */
function flatten(
  nodes: readonly Org[],
  into: { parent: [number, number | null][]; name: Map<number, string> },
) {
  for (const n of nodes) {
    into.parent.push([n.id, n.parent])
    into.name.set(n.id, n.organizationName)
    flatten(n.children, into)
  }
  return into
}

/**
 * The data scope of an allowed call in 权限分析 (DESIGN.md §13): the scope, then each allowing role's
 * part of it, departments named by their tops (研发中心（含下级）).
 */
export function ScopeSummary({ result }: { result: AuthzExplainResult }) {
  const tree = useQuery<Org[]>({
    // the whole tree (served cached and precompressed): a scope's tops are found from every department's parent
    queryKey: [...ORG_TREE_KEY, 'whole'],
    queryFn: () => useOrgStore.getState().fetchTree(),
    enabled: !!result.scope && !result.scope.all,
  })
  const depts = useMemo(() => flatten(tree.data ?? [], { parent: [], name: new Map() }), [tree.data])
  const text = (scope: DataScope) => {
    if (scope.all) return '全部数据'
    const roots = scopeRoots(scope, deptTree(depts.parent)).map((r) => ({
      ...r,
      name: depts.name.get(r.id) ?? `部门 ${r.id}`,
    }))
    return scopeLineText(roots, scope.self)
  }
  if (!result.scope) return null
  return (
    <Descriptions
      size="small"
      column={1}
      bordered
      data-testid="call-scope"
      items={[
        { key: 'scope', label: '数据范围', children: text(result.scope) },
        ...result.roleScopes.map((part) => ({
          key: `role-${part.role.id}`,
          label: `${part.role.roleName}（${dataScopeLabel(part.dataScope)}）`,
          children: text(part.scope),
        })),
      ]}
    />
  )
}
