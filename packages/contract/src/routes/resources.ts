/**
 * The resources the API is about: a stable key each, and the Chinese group name the route catalogue,
 * the OpenAPI tags and the operation log's `resourceType` show for it. One key per group name, so a
 * stored `resourceType` names its resource again.
 */
export const RESOURCE_GROUPS = {
  system: '系统',
  session: '登录',
  file: '文件管理',
  user: '用户管理',
  org: '部门管理',
  station: '职位管理',
  userGroup: '用户组管理',
  position: '岗位管理',
  role: '角色管理',
  auth: '权限管理',
  monitor: '系统监控',
  authz: '权限分析',
  service: '应用管理',
  webhook: 'Webhook 管理',
  settings: '安全设置',
  mfa: '两步验证',
  apiKey: 'API 密钥管理',
  review: '权限复核',
  eligibility: '临时授权',
  accessRequest: '权限申请',
  directory: '目录同步',
  passkey: '通行密钥',
} as const

export type Resource = keyof typeof RESOURCE_GROUPS

/**
 * Group names a resource was once shown under: operation-log rows written then keep the old name, and
 * still name their resource (services became 应用管理 when they became the applications of single
 * sign-on, DESIGN.md §16).
 */
const FORMER_GROUPS: Record<string, Resource> = { 服务管理: 'service' }

const RESOURCE_BY_GROUP = new Map<string, Resource>([
  ...Object.entries(FORMER_GROUPS),
  ...Object.entries(RESOURCE_GROUPS).map(([resource, group]) => [group, resource as Resource] as const),
])

/** The resource a group name (an operation log's stored `resourceType`) stands for. */
export const resourceOfGroup = (group: string | null | undefined): Resource | undefined =>
  group ? RESOURCE_BY_GROUP.get(group) : undefined

/** Every name a group's log rows may carry: the current one and any former one of the same resource. */
export const storedGroupNames = (group: string): string[] => {
  const resource = RESOURCE_BY_GROUP.get(group)
  if (!resource) return [group]
  return [
    RESOURCE_GROUPS[resource],
    ...Object.entries(FORMER_GROUPS).flatMap(([name, r]) => (r === resource ? [name] : [])),
  ]
}
