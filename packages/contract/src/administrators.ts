import type { Resource } from './routes/resources'

/**
 * Who counts as an administrator where `mfa: admins` asks (DESIGN.md §14): a super admin, or a user
 * holding a write permission of this server's own management menus — a permission that lets them
 * make a call changing something there. File upload and download (文件管理), reads, and every node of
 * another service make no one an administrator. The server decides it (`isAdministrator`,
 * apps/server/src/auth/mfa-due.ts); the 安全设置 page says it beside the choice.
 */
export const ADMINISTRATOR_MENUS = ['权限管理', '组织管理', '系统监控', '系统管理'] as const

/** The resources of this server whose calls are not administration (DESIGN.md §14). */
export const NOT_ADMINISTRATION: readonly Resource[] = ['file']

/** The 安全设置 page's explanation beside “管理员必须绑定”. */
export const ADMINISTRATOR_EXPLAINED = `管理员指超级管理员，以及拥有${ADMINISTRATOR_MENUS.map((m) => `“${m}”`).join('、')}中任一修改类权限（新增、修改、删除等按钮）的用户；只能查看、只有文件上传下载或只有其他应用权限的用户不算管理员。`
