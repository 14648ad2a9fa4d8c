import { Descriptions } from 'antd'
import { dataScopeLabel, type AuthzExplainResult } from '@amg/contract'

/**
 * The data scope of an allowed call in 权限分析 (DESIGN.md §13): the scope, then each allowing role's
 * part of it, in the server's words (研发中心（含下级）): the server names every department, also those
 * the reader's own department tree does not hold.
 */
export function ScopeSummary({ result }: { result: AuthzExplainResult }) {
  if (!result.scope) return null
  return (
    <Descriptions
      size="small"
      column={1}
      bordered
      data-testid="call-scope"
      items={[
        { key: 'scope', label: '数据范围', children: result.scopeText ?? '' },
        ...result.roleScopes.map((part) => ({
          key: `role-${part.role.id}`,
          label: `${part.role.roleName}（${dataScopeLabel(part.dataScope)}）`,
          children: part.scopeText,
        })),
      ]}
    />
  )
}
