import { DATA_SCOPE, type DataScopeValue } from '@amg/contract'

/** The demo company's roles and user groups (seed/demo.ts writes them). */

/** Space-separated permission codes, as a list. */
const words = (text: string) => text.split(' ')

export interface RoleSpec {
  roleName: string
  description: string
  status?: 1 | 2
  codes: string[]
  /** DESIGN.md §13 (1 全部数据 when absent) */
  dataScope?: DataScopeValue
}

/** Ordinary roles (type 3) with codes of the seeded tree; ancestors are added as the role form does. */
export const ROLES: RoleSpec[] = [
  {
    roleName: '人事专员',
    description: '维护员工账号及其用户组、岗位',
    // the file codes too: an administrator manages only users whose power it holds (普通员工's included)
    codes: words(
      'user user:add user:edit user:group user:position usergroup position org file:upload file:download',
    ),
  },
  {
    roleName: '只读审计',
    description: '查看全部管理页面，不能修改',
    // every page node, none of the action nodes below them: the logs and 权限分析 included, since
    // an auditor reads who did what and who may do what
    codes: words(
      'user role adminrole usergroup auth service org station position operlog loginlog online webhook authz',
    ),
  },
  {
    roleName: '组织架构管理员',
    description: '维护部门、职位与岗位',
    codes: words(
      'org org:add org:edit org:delete station station:add station:edit station:delete position position:enable position:delete position:link',
    ),
  },
  {
    roleName: '用户组管理员',
    description: '维护用户组及其成员和角色',
    codes: words('usergroup usergroup:add usergroup:edit usergroup:delete usergroup:link user'),
  },
  {
    roleName: '角色管理员',
    description: '维护普通角色与用户的角色',
    codes: words('role role:add role:edit role:delete user user:role'),
  },
  {
    roleName: '安全管理员',
    description: '维护权限点与角色',
    codes: words('auth auth:add auth:edit auth:delete role role:edit user user:role'),
  },
  { roleName: '普通员工', description: '上传与下载文件', codes: ['file:upload', 'file:download'] },
  {
    roleName: '订单专员',
    description: '订单服务：创建订单，只及本人的订单',
    codes: words('orders:create'),
    dataScope: DATA_SCOPE.self,
  },
  {
    roleName: '订单查看',
    description: '订单服务：查看本部门的订单',
    codes: words('orders:view'),
    dataScope: DATA_SCOPE.ownOrg,
  },
  {
    roleName: '部门管理员',
    description: '管理本部门及以下的员工与部门',
    codes: words(
      'user user:add user:edit user:delete user:group user:position usergroup position org org:add org:edit org:delete file:upload file:download',
    ),
    dataScope: DATA_SCOPE.ownOrgTree,
  },
  {
    roleName: '订单主管',
    description: '订单服务：全部订单操作',
    codes: words('orders:view orders:create orders:manage'),
  },
  { roleName: '临时访客', description: '已停用的访客角色', status: 2, codes: ['user'] },
]

export interface GroupSpec {
  groupName: string
  description: string
  status?: 1 | 2
  roles: string[]
  /** share of all users in the group, capped at `max` */
  share: number
  max: number
}

export const GROUPS: GroupSpec[] = [
  { groupName: '新员工', description: '入职三个月内的员工', roles: ['普通员工'], share: 0.08, max: 2000 },
  { groupName: '技术委员会', description: '研发中心的技术骨干', roles: ['只读审计'], share: 0.03, max: 60 },
  {
    groupName: '信息安全小组',
    description: '负责权限与安全审计',
    roles: ['安全管理员'],
    share: 0.01,
    max: 12,
  },
  {
    groupName: '人事与行政',
    description: '人事、行政联合工作组',
    roles: ['人事专员', '用户组管理员'],
    share: 0.02,
    max: 40,
  },
  { groupName: '年会筹备组', description: '年度活动筹备', roles: [], share: 0.02, max: 30 },
  {
    groupName: '外包人员',
    description: '已停用：外包合同结束',
    status: 2,
    roles: ['普通员工'],
    share: 0.02,
    max: 200,
  },
]

/** Roles a job title brings on top of 普通员工, which every position carries. */
export const TITLE_ROLES: Record<string, string[]> = {
  人力资源经理: ['人事专员', '用户组管理员'],
  招聘专员: ['人事专员'],
  薪酬专员: ['人事专员'],
  绩效专员: ['人事专员'],
  培训专员: ['人事专员'],
  财务经理: ['只读审计'],
  法务经理: ['只读审计'],
  信息安全工程师: ['安全管理员'],
  行政经理: ['组织架构管理员'],
  总经理: ['只读审计'],
}
