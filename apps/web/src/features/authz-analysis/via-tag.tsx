import type { AuthzVia } from '@amg/contract'
import { Tag } from 'antd'
import { VIA_KIND_COLOR, viaLabel, viaLabelNamingRole } from './format'

/** Where a role comes from: 直接 / 用户组 X / 岗位 Y, one colour per kind. */
export function ViaTag({ via, namingRole = false }: { via: AuthzVia; namingRole?: boolean }) {
  return (
    <Tag color={VIA_KIND_COLOR[via.kind]} data-testid="via-tag" style={{ marginInlineEnd: 0 }}>
      {namingRole ? viaLabelNamingRole(via) : viaLabel(via)}
    </Tag>
  )
}

/** Several sources side by side; `namingRole` where no column names the role (who-can). */
export function ViaTags({ via, namingRole }: { via: readonly AuthzVia[]; namingRole?: boolean }) {
  return (
    <span style={{ display: 'inline-flex', flexWrap: 'wrap', gap: 4 }}>
      {via.map((v) => (
        <ViaTag key={`${v.kind}:${v.id}`} via={v} namingRole={namingRole} />
      ))}
    </span>
  )
}
