import { asc } from 'drizzle-orm'
import type { Db } from '../../db/connection'
import { stations } from '../../db/schema'
import { orgInScope, type Caller } from '../../auth/user-scope'
import { rolesCarried, type PowerGuard } from '../../auth/power'
import { IMPORT_MAX_ROWS, templateWorkbook } from '../../lib/workbook'
import { readNameBook, type NameBook } from './names'
import { USER_COLUMNS } from './user-rows'
import { ORG_COLUMNS } from './org-rows'

const LIMITS = `文件至多 20MB、${IMPORT_MAX_ROWS} 行；一次只运行一个导入。空行跳过，行号按表格自身的行号报告。`

/**
 * The roles and groups the template's lists offer (DESIGN.md §13). A company-wide caller: all of them.
 * A scoped caller: those an import row of theirs could give, power (§6a) and reach alike, the reach
 * judged for a user placed in the caller's own departments (roles of 本部门 and 本部门及以下 reach what
 * their holder's departments decide): a group's roles must all pass.
 */
async function grantableNames(db: Db, power: PowerGuard, caller: Caller, book: NameBook) {
  const roles = [...book.roleByName.entries()]
  const groups = [...book.groupByName.entries()]
  const names = (entries: [string, number][], allowed: (id: number) => boolean) =>
    entries
      .filter(([, id]) => allowed(id))
      .map(([name]) => name)
      .sort()
  if (caller.scope.all) return { roles: names(roles, () => true), groups: names(groups, () => true) }
  const access = await power.callerAccess(db, caller.id)
  const groupRoles = await rolesCarried(
    db,
    'user_group_roles',
    groups.map(([, id]) => id),
  )
  const roleOwners = new Map(roles.map(([, id]) => [id, [id]]))
  const [rolePower, groupPower, reach] = await Promise.all([
    power.missingPerOwner(db, caller.id, roleOwners),
    power.missingPerOwner(db, caller.id, groupRoles),
    power.lackingReachPerRole(db, access, [
      { roleIds: roles.map(([, id]) => id), targets: [access.ownOrgIds] },
    ]),
  ])
  const roleOk = (id: number) => !rolePower.get(id)?.length && !reach.has(id)
  return {
    roles: names(roles, roleOk),
    groups: names(
      groups,
      (id) => !groupPower.get(id)?.length && (groupRoles.get(id) ?? []).every((r) => !reach.has(r)),
    ),
  }
}

/**
 * GET /user/import/template: the columns, drop-down lists of what exists in the caller's reach
 * (positions in scope; roles and groups they could give), 说明 (with the time-bound links' suffix,
 * link-cell.ts, in the server's zone `timeZone`).
 */
export async function userTemplate(
  db: Db,
  power: PowerGuard,
  caller: Caller,
  timeZone: string,
): Promise<Buffer> {
  const book = await readNameBook(db)
  const grantable = await grantableNames(db, power, caller, book)
  const positionNames = [...book.positionName.entries()]
    .filter(([id]) => orgInScope(caller, book.positionOrg.get(id) ?? null))
    .map(([, name]) => name)
    .sort()
  return templateWorkbook({
    sheetName: '用户',
    columns: [
      { header: USER_COLUMNS[0], width: 18 },
      { header: USER_COLUMNS[1], width: 14 },
      { header: USER_COLUMNS[2], width: 16 },
      { header: USER_COLUMNS[3], width: 10, list: ['正常', '冻结'] },
      { header: USER_COLUMNS[4], width: 40, list: positionNames },
      { header: USER_COLUMNS[5], width: 24, list: grantable.roles },
      { header: USER_COLUMNS[6], width: 24, list: grantable.groups },
      { header: USER_COLUMNS[7], width: 18 },
    ],
    notes: [
      '用户导入说明',
      '登录名：必填，即用户昵称；同一文件中不能重复。',
      '姓名、手机号：选填；手机号为 11 位数字。',
      '状态：正常 或 冻结，空为正常。',
      '岗位：部门全称/职位，如“总公司/研发中心/后端组/工程师”；多个以英文或中文分号分隔。',
      '角色、用户组：按名称填写，多个以分号分隔。',
      `限时关联：岗位、角色、用户组的名称后可加到期时间，如“总公司/研发中心/员工（至 2026-12-31 18:00）”，到期后自动失效；不加为永久。时间按服务器时区（${timeZone}）填写，可带秒，也可带时区偏移（如“（至 2026-12-31 18:00 +08:00）”，导出即如此写出），须晚于当前时间。`,
      '初始密码：选填，须符合密码规则；空则使用系统配置的初始密码。已存在的用户不修改密码。',
      '导入方式：insert 只新建，登录名已存在的行失败；upsert 登录名已存在时修改为表中内容（岗位、角色、用户组与表中一致）。到期时间只会延长或改为永久，不会缩短：要缩短，请先在用户的关联中移除后再导入。',
      '每行与单个新建/修改用户同样校验，且只能授予自己权限与数据范围之内的角色、用户组和岗位；出错的行单独失败，其余照常导入。',
      '建议先勾选“仅校验”，确认结果后再正式导入。',
      LIMITS,
    ],
  })
}

/** GET /org/import/template: 部门全称 and 职位 columns, the job titles as a list, 说明. */
export async function orgTemplate(db: Db, caller: Caller): Promise<Buffer> {
  const book = await readNameBook(db)
  const stationRows = await db
    .select({ name: stations.stationName })
    .from(stations)
    .orderBy(asc(stations.stationName))
  const paths = [...book.orgPath.entries()]
    .filter(([id]) => orgInScope(caller, id))
    .map(([, p]) => p)
    .sort()
  return templateWorkbook({
    sheetName: '部门',
    columns: [
      { header: ORG_COLUMNS[0], width: 48, list: paths },
      { header: ORG_COLUMNS[1], width: 20, list: stationRows.map((s) => s.name) },
    ],
    notes: [
      '部门导入说明',
      '部门全称：从根部门起，以“/”连接，如“总公司/研发中心/后端组”；路径上不存在的部门依次新建。',
      '职位：选填；填写时为该部门新建此职位的岗位。职位不存在时先新建该职位（与职位管理中新建职位相同，需有“新建职位”权限），再为该部门新建岗位；已存在的职位直接使用。',
      '限定数据范围的管理员只能在其管理的部门之下新建部门。',
      '导入方式：insert 时部门（或岗位）已存在的行失败；upsert 时保持不变。',
      LIMITS,
    ],
  })
}
