import { routes, type AuthzRoleImpactResult } from '@amg/contract'
import { Flex, Modal, Tag, Typography } from 'antd'
import { request } from '../lib/route-call'

/**
 * POST /authz/role-impact: what saving `authCodes` on a role would change for its users.
 * Silent: a failure is shown in the confirmation itself, and saving stays possible.
 */
export const fetchRoleImpact = (roleId: number, authCodes: readonly string[]) =>
  request(routes.authz.roleImpact, { body: { roleId, authCodes: [...authCodes] } }, { silent: true })

/** Whether two permission sets hold the same codes, whatever their order or repetitions. */
export function samePermissionSet(a: readonly string[], b: readonly string[]): boolean {
  const left = new Set(a)
  const right = new Set(b)
  return left.size === right.size && [...left].every((code) => right.has(code))
}

/**
 * Nothing to confirm: no active user holds the role, or no one gains or loses anything and the new
 * set holds no disabled node (the confirmation is there to stop a surprise to users' power, and a
 * disabled node is power that arrives later, when someone enables it).
 */
export const changesNoOne = (impact: AuthzRoleImpactResult) =>
  impact.users === 0 ||
  (impact.gained.length === 0 && impact.lost.length === 0 && impact.dormant.length === 0)

type ImpactKind = 'gained' | 'lost' | 'dormant'

function NodeTags({
  kind,
  title,
  color,
  nodes,
  note,
}: {
  kind: ImpactKind
  title: string
  color: string
  nodes: AuthzRoleImpactResult['gained']
  note?: string
}) {
  if (!nodes.length) return null
  return (
    <div data-testid={`impact-${kind}`}>
      <Typography.Text strong>
        {title}（{nodes.length}）
      </Typography.Text>
      {note ? <Typography.Text type="secondary">{note}</Typography.Text> : null}
      {/* a whole subtree may move at once: the list scrolls rather than pushing the buttons away */}
      <Flex wrap gap={6} style={{ marginTop: 6, maxHeight: 160, overflow: 'auto' }}>
        {nodes.map((n) => (
          <Tag key={n.code} color={color} title={n.code} style={{ marginInlineEnd: 0 }}>
            {n.chName}
          </Tag>
        ))}
      </Flex>
    </div>
  )
}

export type RoleImpactPreview = { impact: AuthzRoleImpactResult } | { error: string }

/**
 * The confirmation before a role's changed permission set is saved (DESIGN.md §10): how many
 * active users hold the role, what they gain and lose, and the disabled nodes the role would hold
 * (power that comes alive once enabled). Cancel leaves the form as it is.
 */
export function RoleImpactDialog({
  preview,
  onConfirm,
  onCancel,
}: {
  preview: RoleImpactPreview | null
  onConfirm(): void
  onCancel(): void
}) {
  return (
    <Modal
      open={preview !== null}
      title="确认修改角色权限"
      okText="确认保存"
      cancelText="取消"
      onOk={onConfirm}
      onCancel={onCancel}
      destroyOnHidden
      mask={{ closable: false }}
    >
      {preview && 'impact' in preview ? (
        <Flex vertical gap={12} data-testid="role-impact">
          <Typography.Paragraph style={{ margin: 0 }}>
            此修改将影响 <Typography.Text strong>{preview.impact.users}</Typography.Text>{' '}
            个用户（直接、经用户组或岗位持有该角色的正常用户）。
          </Typography.Paragraph>
          <NodeTags kind="gained" title="新增权限" color="success" nodes={preview.impact.gained} />
          <NodeTags kind="lost" title="移除权限" color="error" nodes={preview.impact.lost} />
          <NodeTags
            kind="dormant"
            title="已停用、启用后生效的权限"
            color="warning"
            nodes={preview.impact.dormant}
            note="：这些权限点已停用，保存后角色将持有它们，一旦启用，上述用户即获得这些权限。"
          />
        </Flex>
      ) : preview ? (
        <Typography.Paragraph type="warning" data-testid="role-impact">
          无法预览此修改的影响范围：{preview.error}。仍要保存吗？
        </Typography.Paragraph>
      ) : null}
    </Modal>
  )
}
