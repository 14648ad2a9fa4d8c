import { auths, roleAuths, roles, userGroupRoles, userGroups } from '../../src/db/schema'
import type { TestApp } from './app'

/**
 * Dormant power beside the company of company.ts (DESIGN.md §6a, "Stored power counts whatever its
 * status"): disabled permission nodes, a role holding them and a disabled group carrying that role.
 */
export interface DormantWorld {
  /** a disabled node under 文件管理 with 上传文件's power (POST /file-manage/upload-one-step) */
  offNode: string
  /** a disabled node without power of its own, at the top, and an enabled node under it (下载文件's power) */
  offParent: string
  underOff: string
  /** an enabled role holding 用户管理 and both dormant nodes */
  dormantRole: number
  /** a disabled group carrying dormantRole */
  dormantGroup: number
  /** an administrator holding every seeded node, live, without being a super admin */
  equal?: { id: number; token: string }
}

export const OFF_NODE = '停用上传'
export const UNDER_OFF = '目录下载'

/** A permission form (the permission screens' fields). */
export function authForm(over: Record<string, unknown>) {
  return {
    chName: '新权限',
    enName: 'newAuth',
    parentCode: 'user',
    seq: 9,
    status: 1,
    type: 3,
    frontEndAccessList: '',
    urlPatternInfos: [],
    ...over,
  }
}

/** The nodes through the API (generated codes), the role and group in the database. */
export async function seedDormant(t: TestApp, opts: { equal?: boolean } = {}): Promise<DormantWorld> {
  const insert = async (body: Record<string, unknown>) => {
    const res = await t.call<string>('POST', '/api/auth/insert', {
      token: t.adminToken,
      body: authForm(body),
    })
    if (res.status !== 200) throw new Error(`auth/insert: ${res.body.msg}`)
    return res.body.data
  }
  const seeded = (await t.db.select({ code: auths.code }).from(auths)).map((a) => a.code)
  const offNode = await insert({
    chName: OFF_NODE,
    parentCode: 'file',
    status: 2,
    urlPatternInfos: [{ method: 'POST', uri: '/file-manage/upload-one-step' }],
  })
  const offParent = await insert({ chName: '停用目录', parentCode: null, status: 2 })
  const underOff = await insert({
    chName: UNDER_OFF,
    parentCode: offParent,
    status: 1,
    urlPatternInfos: [{ method: 'GET', uri: '/file-manage/download' }],
  })
  const [role] = await t.db
    .insert(roles)
    .values({ roleName: '休眠角色', type: 3, status: 1 })
    .returning({ id: roles.id })
  await t.db
    .insert(roleAuths)
    .values(['user', offNode, underOff].map((authCode) => ({ roleId: role.id, authCode })))
  const [group] = await t.db
    .insert(userGroups)
    .values({ groupName: '休眠用户组', status: 2 })
    .returning({ id: userGroups.id })
  await t.db.insert(userGroupRoles).values({ groupId: group.id, roleId: role.id })
  const equal = opts.equal ? await t.userWithCodes(seeded, 'equal_admin') : undefined
  await t.app.ctx.authz.invalidate()
  return { offNode, offParent, underOff, dormantRole: role.id, dormantGroup: group.id, equal }
}
