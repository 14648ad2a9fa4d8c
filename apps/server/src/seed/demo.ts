/**
 * Demo data (`npm run seed:demo [-- --users 100000]`): a realistic Chinese company so a newcomer
 * sees a living console — a department tree four levels deep, dozens of job titles, the positions
 * pairing them, users with Chinese names and valid mobiles, user groups, ordinary roles with
 * sensible permissions, and the links between all of them.
 *
 * Everything is written in one transaction, in batches, with the password hashed once; the run
 * refuses when demo data is already there (the marker department DEMO_MARKER_ORG exists).
 */
import { seedDemoHistory } from './demo-history'
import { pathToFileURL } from 'node:url'
import { and, eq, isNull } from 'drizzle-orm'
import type { Db, Tx } from '../db/connection'
import {
  organizations,
  positionRoles,
  positions,
  positionUsers,
  auths,
  roleAuths,
  roles,
  services,
  stations,
  userGroupRoles,
  userGroups,
  userGroupUsers,
  userRoles,
  users,
} from '../db/schema'
import { ADMIN_NICK_NAME, flattenSeedTree } from './base'
import { SEED_AUTH_TREE, type SeedAuthNode } from '../db/seed-auth-tree'
import { hashPassword } from '../auth/password'
import { DATA_SCOPE, type DataScopeValue } from '@amg/contract'

export const DEMO_MARKER_ORG = '研发中心'
export const DEFAULT_DEMO_USERS = 300
export const MAX_DEMO_USERS = 1_000_000
const BATCH = 1000

/** Accounts with a known role, created first so the README can name them. */
export const DEMO_ACCOUNTS: readonly DemoAccount[] = [
  {
    nickName: 'demo_hr',
    realName: '林晓雯',
    roles: ['人事专员'],
    home: { dept: '招聘组', title: '招聘专员' },
  },
  {
    nickName: 'demo_audit',
    realName: '周建国',
    roles: ['只读审计'],
    home: { dept: '会计组', title: '会计' },
  },
  {
    nickName: 'demo_org',
    realName: '陈思远',
    roles: ['组织架构管理员'],
    home: { dept: '后勤组', title: '行政专员' },
  },
  {
    nickName: 'demo_staff',
    realName: '张小北',
    roles: ['普通员工'],
    home: { dept: 'Web组', title: '前端工程师' },
  },
  // DESIGN.md §13: creates orders as herself only (仅本人) and reads her department's (本部门)
  {
    nickName: 'demo_orders',
    realName: '吴佳怡',
    roles: ['订单专员', '订单查看'],
    home: { dept: '商务组', title: '商务专员' },
  },
  // DESIGN.md §13: department administrators, one role reaching each holder's department and below
  {
    nickName: 'demo_rd_admin',
    realName: '郑宇航',
    roles: ['部门管理员'],
    home: { dept: '研发中心', title: '技术总监' },
  },
  {
    nickName: 'demo_sales_admin',
    realName: '何雅琴',
    roles: ['部门管理员'],
    home: { dept: '销售部', title: '销售总监' },
  },
]

interface DemoAccount {
  nickName: string
  realName: string
  /** roles linked to the account directly */
  roles: readonly string[]
  /** the department and job title of the account's one position (its title brings no role beyond the account's own) */
  home: { dept: string; title: string }
}

/**
 * The demo service behind a gateway (DESIGN.md §10a): its own permission subtree, whose patterns
 * are its paths as its gateway forwards them. Nothing here opens this server's own API.
 */
export const DEMO_SERVICE = { key: 'orders', name: '订单服务' } as const
const DEMO_SERVICE_TREE: SeedAuthNode = {
  code: 'orders',
  chName: '订单服务',
  enName: 'orders',
  type: 1,
  children: [
    { code: 'orders:view', chName: '查看订单', enName: 'ordersView', type: 3, api: ['GET /api/orders/**'] },
    { code: 'orders:create', chName: '创建订单', enName: 'ordersCreate', type: 3, api: ['POST /api/orders'] },
    {
      code: 'orders:manage',
      chName: '修改与取消订单',
      enName: 'ordersManage',
      type: 3,
      api: ['PUT /api/orders/**', 'DELETE /api/orders/**'],
    },
  ],
}

// ---------------------------------------------------------------------------------------------
// The company
// ---------------------------------------------------------------------------------------------

interface DeptSpec {
  name: string
  description?: string
  /** job titles held in this department */
  stations?: string[]
  children?: DeptSpec[]
}

const DEV = ['前端工程师', '高级前端工程师']
const BACK = ['后端工程师', '高级后端工程师']

const COMPANY: DeptSpec[] = [
  {
    name: DEMO_MARKER_ORG,
    description: '负责公司全部产品的研发与交付',
    stations: ['技术总监', '项目经理', '架构师'],
    children: [
      {
        name: '前端组',
        stations: ['前端技术经理'],
        children: [
          { name: 'Web组', stations: DEV },
          { name: '移动端组', stations: ['Android工程师', 'iOS工程师', '小程序工程师'] },
        ],
      },
      {
        name: '后端组',
        stations: ['后端技术经理'],
        children: [
          {
            name: '交易组',
            stations: BACK,
            children: [
              { name: '支付小组', stations: BACK },
              { name: '订单小组', stations: BACK },
            ],
          },
          { name: '基础架构组', stations: [...BACK, '架构师'] },
          { name: '数据组', stations: ['数据工程师', '数据分析师', '算法工程师'] },
        ],
      },
      { name: '测试组', stations: ['测试工程师', '测试开发工程师', '测试经理'] },
      { name: '运维组', stations: ['运维工程师', 'DevOps工程师', '数据库管理员', '信息安全工程师'] },
    ],
  },
  {
    name: '产品部',
    description: '产品规划、需求与用户体验',
    stations: ['产品总监'],
    children: [
      { name: '产品规划组', stations: ['产品经理', '高级产品经理', '产品助理'] },
      { name: '用户体验组', stations: ['UI设计师', '交互设计师', '用户研究员'] },
    ],
  },
  {
    name: '市场部',
    description: '品牌、推广与区域市场',
    stations: ['市场总监'],
    children: [
      { name: '品牌推广组', stations: ['品牌经理', '市场专员', '新媒体运营'] },
      { name: '渠道拓展组', stations: ['渠道经理', '市场专员'] },
      {
        name: '华东区',
        stations: ['区域经理'],
        children: [
          { name: '上海办事处', stations: ['市场专员', '销售代表'] },
          { name: '杭州办事处', stations: ['市场专员', '销售代表'] },
        ],
      },
      {
        name: '华南区',
        stations: ['区域经理'],
        children: [
          { name: '广州办事处', stations: ['市场专员', '销售代表'] },
          { name: '深圳办事处', stations: ['市场专员', '销售代表'] },
        ],
      },
      { name: '华北区', stations: ['区域经理', '市场专员', '销售代表'] },
    ],
  },
  {
    name: '销售部',
    description: '客户开发与签约',
    stations: ['销售总监'],
    children: [
      { name: '大客户部', stations: ['大客户经理', '销售经理'] },
      { name: '电话销售组', stations: ['销售代表', '销售经理'] },
      { name: '商务组', stations: ['商务专员'] },
    ],
  },
  {
    name: '财务部',
    description: '核算、资金与税务',
    stations: ['财务经理'],
    children: [
      { name: '会计组', stations: ['会计', '成本会计'] },
      { name: '出纳组', stations: ['出纳'] },
      { name: '税务组', stations: ['税务专员'] },
    ],
  },
  {
    name: '人力资源部',
    description: '招聘、薪酬与培训',
    stations: ['人力资源经理'],
    children: [
      { name: '招聘组', stations: ['招聘专员'] },
      { name: '薪酬绩效组', stations: ['薪酬专员', '绩效专员'] },
      { name: '培训组', stations: ['培训专员'] },
    ],
  },
  {
    name: '行政部',
    description: '办公环境与后勤保障',
    stations: ['行政经理'],
    children: [
      { name: '前台', stations: ['前台接待'] },
      { name: '后勤组', stations: ['行政专员', '司机'] },
    ],
  },
  { name: '法务部', description: '合同审核与合规', stations: ['法务经理', '法务专员'] },
  {
    name: '客户服务部',
    description: '售前咨询与售后支持',
    stations: ['客服主管'],
    children: [
      { name: '售前客服组', stations: ['客服专员'] },
      { name: '售后客服组', stations: ['客服专员', '技术支持工程师'] },
    ],
  },
  { name: '总经办', description: '公司管理层', stations: ['总经理', '副总经理', '总经理助理'] },
]

/** Titles held in every department (on top of the department's own). */
const EVERYWHERE = ['实习生']

interface RoleSpec {
  roleName: string
  description: string
  status?: 1 | 2
  codes: string[]
  /** DESIGN.md §13 (1 全部数据 when absent) */
  dataScope?: DataScopeValue
}

/** Ordinary roles (type 3) with codes of the seeded tree; ancestors are added as the role form does. */
const ROLES: RoleSpec[] = [
  {
    roleName: '人事专员',
    description: '维护员工账号及其用户组、岗位',
    // the file codes too: an administrator manages only users whose power it holds (普通员工's included)
    codes: [
      'user',
      'user:add',
      'user:edit',
      'user:group',
      'user:position',
      'usergroup',
      'position',
      'org',
      'file:upload',
      'file:download',
    ],
  },
  {
    roleName: '只读审计',
    description: '查看全部管理页面，不能修改',
    // every page node, none of the action nodes below them: the logs and 权限分析 included, since
    // an auditor reads who did what and who may do what
    codes: [
      'user',
      'role',
      'adminrole',
      'usergroup',
      'auth',
      'service',
      'org',
      'station',
      'position',
      'operlog',
      'loginlog',
      'online',
      'webhook',
      'authz',
    ],
  },
  {
    roleName: '组织架构管理员',
    description: '维护部门、职位与岗位',
    codes: [
      'org',
      'org:add',
      'org:edit',
      'org:delete',
      'station',
      'station:add',
      'station:edit',
      'station:delete',
      'position',
      'position:enable',
      'position:delete',
      'position:link',
    ],
  },
  {
    roleName: '用户组管理员',
    description: '维护用户组及其成员和角色',
    codes: ['usergroup', 'usergroup:add', 'usergroup:edit', 'usergroup:delete', 'usergroup:link', 'user'],
  },
  {
    roleName: '角色管理员',
    description: '维护普通角色与用户的角色',
    codes: ['role', 'role:add', 'role:edit', 'role:delete', 'user', 'user:role'],
  },
  {
    roleName: '安全管理员',
    description: '维护权限点与角色',
    codes: ['auth', 'auth:add', 'auth:edit', 'auth:delete', 'role', 'role:edit', 'user', 'user:role'],
  },
  { roleName: '普通员工', description: '上传与下载文件', codes: ['file:upload', 'file:download'] },
  {
    roleName: '订单专员',
    description: '订单服务：创建订单，只及本人的订单',
    codes: ['orders:create'],
    dataScope: DATA_SCOPE.self,
  },
  {
    roleName: '订单查看',
    description: '订单服务：查看本部门的订单',
    codes: ['orders:view'],
    dataScope: DATA_SCOPE.ownOrg,
  },
  {
    roleName: '部门管理员',
    description: '管理本部门及以下的员工与部门',
    codes: [
      'user',
      'user:add',
      'user:edit',
      'user:delete',
      'user:group',
      'user:position',
      'usergroup',
      'position',
      'org',
      'org:add',
      'org:edit',
      'org:delete',
      'file:upload',
      'file:download',
    ],
    dataScope: DATA_SCOPE.ownOrgTree,
  },
  {
    roleName: '订单主管',
    description: '订单服务：全部订单操作',
    codes: ['orders:view', 'orders:create', 'orders:manage'],
  },
  { roleName: '临时访客', description: '已停用的访客角色', status: 2, codes: ['user'] },
]

interface GroupSpec {
  groupName: string
  description: string
  status?: 1 | 2
  roles: string[]
  /** share of all users in the group, capped at `max` */
  share: number
  max: number
}

const GROUPS: GroupSpec[] = [
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

// Chinese names with their pinyin, for realName and a readable login nickName ('汉字:pinyin ...')
function pairs(text: string): [string, string][] {
  return text
    .trim()
    .split(/\s+/)
    .map((p) => p.split(':') as [string, string])
}
const SURNAMES: [string, string][] = pairs(
  '王:wang 李:li 张:zhang 刘:liu 陈:chen 杨:yang 黄:huang 赵:zhao 吴:wu 周:zhou 徐:xu 孙:sun 马:ma 朱:zhu 胡:hu ' +
    '郭:guo 何:he 高:gao 林:lin 罗:luo 郑:zheng 梁:liang 谢:xie 宋:song 唐:tang 许:xu 韩:han 冯:feng 邓:deng 曹:cao ' +
    '彭:peng 曾:zeng 肖:xiao 田:tian 董:dong 袁:yuan 潘:pan 于:yu 蒋:jiang 蔡:cai 余:yu 杜:du 叶:ye 程:cheng 苏:su ' +
    '魏:wei 吕:lv 丁:ding 任:ren 沈:shen 姚:yao 卢:lu 姜:jiang 崔:cui 钟:zhong 谭:tan 陆:lu 汪:wang 范:fan 金:jin ' +
    '石:shi 廖:liao 贾:jia 夏:xia 韦:wei 方:fang 白:bai 邹:zou 孟:meng 熊:xiong 欧阳:ouyang 司马:sima 诸葛:zhuge ',
)
const GIVEN: [string, string][] = pairs(
  '伟:wei 芳:fang 娜:na 敏:min 静:jing 丽:li 强:qiang 磊:lei 军:jun 洋:yang 勇:yong 艳:yan 杰:jie 娟:juan 涛:tao ' +
    '明:ming 超:chao 秀:xiu 霞:xia 平:ping 刚:gang 桂:gui 英:ying 华:hua 玉:yu 兰:lan 婷:ting 雪:xue 慧:hui 鹏:peng ' +
    '宇:yu 浩:hao 欣:xin 怡:yi 晨:chen 阳:yang 佳:jia 嘉:jia 子:zi 涵:han 梓:zi 萱:xuan 博:bo 文:wen 轩:xuan 思:si ' +
    '雨:yu 泽:ze 晓:xiao 俊:jun 凯:kai 琳:lin 颖:ying 倩:qian 建:jian 国:guo 志:zhi 海:hai 峰:feng 斌:bin 波:bo ' +
    '辉:hui 红:hong 梅:mei 莉:li 晶:jing 彬:bin 瑶:yao 昊:hao 然:ran 一:yi 诗:shi 天:tian 乐:le 安:an 宁:ning 远:yuan ',
)
/** Mainland mobile prefixes in use. */
const MOBILE_PREFIXES =
  '130 131 132 133 135 136 137 138 139 150 151 152 155 156 158 159 166 176 177 180 181 183 185 186 187 188 189 191 198 199'.split(
    ' ',
  )

// ---------------------------------------------------------------------------------------------
// Seeding
// ---------------------------------------------------------------------------------------------

export interface DemoOptions {
  /** how many users to create (the DEMO_ACCOUNTS first) */
  users?: number
  /** password of every demo user: the configured initial user password */
  password: string
  /** seed of the pseudo-random choices, so two runs build the same company */
  randomSeed?: number
  log?: (line: string) => void
}

export interface DemoSummary {
  organizations: number
  stations: number
  positions: number
  users: number
  userGroups: number
  roles: number
  userRoles: number
  userGroupUsers: number
  positionUsers: number
  positionRoles: number
  userGroupRoles: number
  operationLogs: number
  loginLogs: number
}

export class DemoDataExistsError extends Error {}

/** A small deterministic generator (mulberry32), so the demo company is the same on every run. */
function random(seed: number) {
  let a = seed >>> 0
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const int = (n: number) => Math.floor(next() * n)
  const pick = <T>(list: readonly T[]): T => list[int(list.length)]
  return { next, int, pick }
}

async function insertInBatches<T>(tx: Tx, rows: T[], insert: (tx: Tx, batch: T[]) => Promise<unknown>) {
  for (let i = 0; i < rows.length; i += BATCH) await insert(tx, rows.slice(i, i + BATCH))
}

export async function seedDemo(db: Db, options: DemoOptions): Promise<DemoSummary> {
  const total = options.users ?? DEFAULT_DEMO_USERS
  if (!Number.isInteger(total) || total < 1 || total > MAX_DEMO_USERS) {
    throw new Error(`用户数量必须是 1 到 ${MAX_DEMO_USERS} 之间的整数`)
  }
  const log = options.log ?? (() => {})
  const rnd = random(options.randomSeed ?? 20240601)
  // One hash for everyone: hashing is deliberately slow, and the password is the same.
  const passwordHash = await hashPassword(options.password)

  return db.transaction(async (tx) => {
    const [root] = await tx
      .select({ id: organizations.id })
      .from(organizations)
      .where(isNull(organizations.parent))
      .orderBy(organizations.id)
      .limit(1)
    if (!root) throw new Error('没有根部门：请先启动一次服务（或运行基础数据初始化）')
    const [marker] = await tx
      .select({ id: organizations.id })
      .from(organizations)
      .where(and(eq(organizations.parent, root.id), eq(organizations.organizationName, DEMO_MARKER_ORG)))
    if (marker) {
      throw new DemoDataExistsError(
        `演示数据已存在（根部门下已有“${DEMO_MARKER_ORG}”），本次没有写入任何数据。如需重新生成，请使用新的数据目录（DATA_DIR）或新的数据库。`,
      )
    }
    const [admin] = await tx.select({ id: users.id }).from(users).where(eq(users.nickName, ADMIN_NICK_NAME))
    const operator = admin?.id ?? null
    const ops = { createUserId: operator, updateUserId: operator }

    // Job titles: every title named anywhere in the company, once.
    const titleNames = [...new Set([...collectTitles(COMPANY), ...EVERYWHERE])]
    const titleRows = await tx
      .insert(stations)
      .values(titleNames.map((stationName) => ({ stationName, type: 1, ...ops })))
      .onConflictDoNothing({ target: stations.stationName })
      .returning({ id: stations.id, stationName: stations.stationName })
    const titleId = new Map(titleRows.map((r) => [r.stationName, r.id]))
    const existing = await tx.select({ id: stations.id, stationName: stations.stationName }).from(stations)
    for (const r of existing) if (!titleId.has(r.stationName)) titleId.set(r.stationName, r.id)
    log(`职位 ${titleNames.length} 个`)

    // Departments, level by level, then their positions.
    const deptTitles: { orgId: number; name: string; titles: string[]; leaf: boolean }[] = []
    let level: { spec: DeptSpec; parent: number }[] = COMPANY.map((spec) => ({ spec, parent: root.id }))
    let orgCount = 0
    while (level.length) {
      const inserted = await tx
        .insert(organizations)
        .values(
          level.map(({ spec, parent }) => ({
            organizationName: spec.name,
            description: spec.description ?? null,
            parent,
            ...ops,
          })),
        )
        .returning({ id: organizations.id })
      orgCount += inserted.length
      const next: typeof level = []
      level.forEach(({ spec }, i) => {
        const orgId = inserted[i].id
        deptTitles.push({
          orgId,
          name: spec.name,
          titles: [...new Set([...(spec.stations ?? []), ...EVERYWHERE])],
          leaf: !spec.children?.length,
        })
        for (const child of spec.children ?? []) next.push({ spec: child, parent: orgId })
      })
      level = next
    }
    log(`部门 ${orgCount} 个`)

    const positionRows = await tx
      .insert(positions)
      .values(
        deptTitles.flatMap((d) =>
          d.titles.map((t) => ({
            orgId: d.orgId,
            stationId: titleId.get(t)!,
            status: 1,
            type: 1,
          })),
        ),
      )
      .onConflictDoNothing()
      .returning({ id: positions.id, orgId: positions.orgId, stationId: positions.stationId })
    const stationNameById = new Map([...titleId].map(([name, id]) => [id, name]))
    const positionsOf = new Map<number, { id: number; title: string }[]>()
    for (const p of positionRows) {
      const list = positionsOf.get(p.orgId) ?? []
      list.push({ id: p.id, title: stationNameById.get(p.stationId)! })
      positionsOf.set(p.orgId, list)
    }
    log(`岗位 ${positionRows.length} 个`)

    // The demo service: its subtree at the end of the top level, and the service owning it.
    const serviceRows = flattenSeedTree([DEMO_SERVICE_TREE]).map((r) =>
      r.parentCode === null ? { ...r, seq: SEED_AUTH_TREE.length + 1 } : r,
    )
    await tx.insert(auths).values(serviceRows).onConflictDoNothing({ target: auths.code })
    await tx
      .insert(services)
      .values({ key: DEMO_SERVICE.key, name: DEMO_SERVICE.name, rootCode: DEMO_SERVICE_TREE.code, ...ops })
      .onConflictDoNothing()
    log(`服务 ${DEMO_SERVICE.name}（${DEMO_SERVICE.key}）`)

    // Roles with their permission codes (plus the ancestors the role form checks along).
    const parentOf = new Map(
      [...flattenSeedTree(SEED_AUTH_TREE), ...serviceRows].map((r) => [r.code, r.parentCode ?? null]),
    )
    const withAncestors = (codes: string[]) => {
      const out = new Set<string>()
      for (const code of codes) {
        for (let c: string | null | undefined = code; c; c = parentOf.get(c)) out.add(c)
      }
      return [...out]
    }
    const roleRows = await tx
      .insert(roles)
      .values(
        ROLES.map((r) => ({
          roleName: r.roleName,
          description: r.description,
          type: 3,
          status: r.status ?? 1,
          dataScope: r.dataScope ?? DATA_SCOPE.all,
          ...ops,
        })),
      )
      .onConflictDoNothing({ target: roles.roleName })
      .returning({ id: roles.id, roleName: roles.roleName })
    const roleId = new Map(roleRows.map((r) => [r.roleName, r.id]))
    const roleAuthRows = ROLES.filter((r) => roleId.has(r.roleName)).flatMap((r) =>
      withAncestors(r.codes)
        .filter((code) => parentOf.has(code))
        .map((authCode) => ({ roleId: roleId.get(r.roleName)!, authCode })),
    )
    if (roleAuthRows.length) await tx.insert(roleAuths).values(roleAuthRows).onConflictDoNothing()
    log(`角色 ${roleRows.length} 个`)

    // Users: the known demo accounts first, then generated people.
    const taken = new Set(
      (await tx.select({ nickName: users.nickName }).from(users)).map((u) => u.nickName.toLowerCase()),
    )
    const now = Date.now()
    const twoYears = 2 * 365 * 86_400_000
    const people: (typeof users.$inferInsert)[] = []
    const leafDepts = deptTitles.filter((d) => d.leaf)
    const homeOf: { orgId: number; title?: string; direct?: readonly string[] }[] = []
    for (let i = 0; i < total; i++) {
      const known = DEMO_ACCOUNTS[i]
      let realName: string
      let nickName: string
      if (known && !taken.has(known.nickName)) {
        realName = known.realName
        nickName = known.nickName
      } else {
        const [surname, surnamePy] = rnd.pick(SURNAMES)
        const given = rnd.next() < 0.35 ? [rnd.pick(GIVEN)] : [rnd.pick(GIVEN), rnd.pick(GIVEN)]
        realName = surname + given.map((g) => g[0]).join('')
        const base = surnamePy + given.map((g) => g[1]).join('')
        nickName = base
        for (let n = 2; taken.has(nickName); n++) nickName = `${base}${n}`
      }
      taken.add(nickName.toLowerCase())
      const created = new Date(now - Math.floor(rnd.next() * twoYears))
      people.push({
        nickName,
        realName,
        mobile: rnd.pick(MOBILE_PREFIXES) + String(rnd.int(100_000_000)).padStart(8, '0'),
        passwordHash,
        passwordIsInitial: 1,
        // a few frozen accounts (never the known demo accounts)
        status: !known && rnd.next() < 0.03 ? 2 : 1,
        createTime: created,
        updateTime: created,
        ...ops,
      })
      const home = known?.home && deptTitles.find((d) => d.name === known.home!.dept)
      homeOf.push({
        orgId: home ? home.orgId : rnd.pick(leafDepts).orgId,
        title: home ? known.home!.title : undefined,
        direct: known?.roles,
      })
    }
    const userIds: number[] = []
    for (let i = 0; i < people.length; i += BATCH) {
      const rows = await tx
        .insert(users)
        .values(people.slice(i, i + BATCH))
        .returning({ id: users.id })
      userIds.push(...rows.map((r) => r.id))
      if (total >= 10 * BATCH && (i / BATCH) % 10 === 9) log(`  用户 ${userIds.length}/${total}`)
    }
    log(`用户 ${userIds.length} 个（初始密码相同）`)

    // Each user holds a position in their department; about one in ten holds a second one elsewhere.
    const positionUserRows: { positionId: number; userId: number }[] = []
    const everywherePositions = deptTitles.flatMap((d) => positionsOf.get(d.orgId) ?? [])
    userIds.forEach((userId, i) => {
      const own = (positionsOf.get(homeOf[i].orgId) ?? []).filter((p) => !EVERYWHERE.includes(p.title))
      const titled = own.find((p) => p.title === homeOf[i].title)
      const first = titled ?? (own.length ? rnd.pick(own) : rnd.pick(everywherePositions))
      positionUserRows.push({ positionId: first.id, userId })
      // the demo accounts hold their one position only, so what the README says of them holds (a
      // department administrator's scope is their department); the roll is made for them too, so the
      // other users' data stays as it was
      if (rnd.next() < 0.1 && homeOf[i].direct === undefined) {
        const second = rnd.pick(everywherePositions)
        if (second.id !== first.id) positionUserRows.push({ positionId: second.id, userId })
      }
    })
    await insertInBatches(tx, positionUserRows, (t, batch) =>
      t.insert(positionUsers).values(batch).onConflictDoNothing(),
    )
    log(`用户岗位关联 ${positionUserRows.length} 条`)

    // Position → role: everyone gets 普通员工 through their position; HR, finance and ops titles more.
    const titleRoles: Record<string, string[]> = {
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
    const positionRoleRows = positionRows.flatMap((p) => {
      const title = stationNameById.get(p.stationId)!
      return ['普通员工', ...(titleRoles[title] ?? [])]
        .filter((r) => roleId.has(r))
        .map((r) => ({ positionId: p.id, roleId: roleId.get(r)! }))
    })
    await insertInBatches(tx, positionRoleRows, (t, batch) =>
      t.insert(positionRoles).values(batch).onConflictDoNothing(),
    )

    // Direct user → role: the demo accounts, and a few dozen others.
    const userRoleRows: { userId: number; roleId: number }[] = []
    userIds.forEach((userId, i) => {
      for (const direct of homeOf[i].direct ?? [])
        if (roleId.has(direct)) userRoleRows.push({ userId, roleId: roleId.get(direct)! })
    })
    const extra = Math.min(60, Math.floor(userIds.length / 10))
    const directRoles = ROLES.filter((r) => r.roleName !== '普通员工').map((r) => r.roleName)
    for (let k = 0; k < extra; k++) {
      const role = roleId.get(rnd.pick(directRoles))
      if (role) userRoleRows.push({ userId: userIds[rnd.int(userIds.length)], roleId: role })
    }
    const uniqueUserRoles = [...new Map(userRoleRows.map((r) => [`${r.userId}:${r.roleId}`, r])).values()]
    await insertInBatches(tx, uniqueUserRoles, (t, batch) =>
      t.insert(userRoles).values(batch).onConflictDoNothing(),
    )

    // User groups with their roles and members.
    const groupRows = await tx
      .insert(userGroups)
      .values(
        GROUPS.map((g) => ({
          groupName: g.groupName,
          description: g.description,
          status: g.status ?? 1,
          ...ops,
        })),
      )
      .onConflictDoNothing({ target: userGroups.groupName })
      .returning({ id: userGroups.id, groupName: userGroups.groupName })
    const groupId = new Map(groupRows.map((g) => [g.groupName, g.id]))
    const groupRoleRows = GROUPS.filter((g) => groupId.has(g.groupName)).flatMap((g) =>
      g.roles
        .filter((r) => roleId.has(r))
        .map((r) => ({ groupId: groupId.get(g.groupName)!, roleId: roleId.get(r)! })),
    )
    if (groupRoleRows.length) await tx.insert(userGroupRoles).values(groupRoleRows).onConflictDoNothing()
    const groupUserRows: { groupId: number; userId: number }[] = []
    for (const g of GROUPS) {
      const id = groupId.get(g.groupName)
      if (!id) continue
      const size = Math.min(g.max, Math.max(1, Math.round(userIds.length * g.share)))
      const members = new Set<number>()
      for (let tries = 0; members.size < size && tries < size * 4; tries++)
        members.add(userIds[rnd.int(userIds.length)])
      for (const userId of members) groupUserRows.push({ groupId: id, userId })
    }
    await insertInBatches(tx, groupUserRows, (t, batch) =>
      t.insert(userGroupUsers).values(batch).onConflictDoNothing(),
    )
    log(`用户组 ${groupRows.length} 个`)

    const history = await seedDemoHistory(
      tx,
      rnd,
      DEMO_ACCOUNTS.map((a) => a.nickName),
    )
    log(`操作日志 ${history.operations} 条，登录日志 ${history.logins} 条`)

    return {
      organizations: orgCount,
      stations: titleRows.length,
      positions: positionRows.length,
      users: userIds.length,
      userGroups: groupRows.length,
      roles: roleRows.length,
      userRoles: uniqueUserRoles.length,
      userGroupUsers: groupUserRows.length,
      positionUsers: positionUserRows.length,
      positionRoles: positionRoleRows.length,
      userGroupRoles: groupRoleRows.length,
      operationLogs: history.operations,
      loginLogs: history.logins,
    }
  })
}

function collectTitles(depts: DeptSpec[]): string[] {
  return depts.flatMap((d) => [...(d.stations ?? []), ...collectTitles(d.children ?? [])])
}

// ---------------------------------------------------------------------------------------------
// Command line: npm run seed:demo [-- --users N]
// ---------------------------------------------------------------------------------------------

export function parseDemoArgs(argv: string[]): { users: number } {
  let users = DEFAULT_DEMO_USERS
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    let value: string | undefined
    if (arg === '--users') value = argv[++i]
    else if (arg.startsWith('--users=')) value = arg.slice('--users='.length)
    else if (arg === '--help' || arg === '-h') throw new UsageError('')
    else throw new UsageError(`不认识的参数：${arg}`)
    const n = Number(value?.replace(/_/g, ''))
    if (!value || !Number.isInteger(n) || n < 1 || n > MAX_DEMO_USERS) {
      throw new UsageError(`--users 需要 1 到 ${MAX_DEMO_USERS} 之间的整数，收到：${value ?? '（空）'}`)
    }
    users = n
  }
  return { users }
}

class UsageError extends Error {}

const USAGE = `用法：npm run seed:demo [-- --users N]
  在服务使用的同一个数据库（DATABASE_URL，未设置时为 DATA_DIR 下的内嵌数据库）中生成演示数据。
  --users N   生成 N 个用户（默认 ${DEFAULT_DEMO_USERS}，最多 ${MAX_DEMO_USERS}）
  注意：内嵌数据库（PGlite）同一时间只能被一个进程打开，运行前请先停止服务。`

async function main() {
  let args: { users: number }
  try {
    args = parseDemoArgs(process.argv.slice(2))
  } catch (err) {
    if (err instanceof UsageError) {
      if (err.message) console.error(err.message)
      console.error(USAGE)
      process.exit(err.message ? 2 : 0)
    }
    throw err
  }
  const { loadConfig } = await import('../config')
  const { openDatabase } = await import('../db/connection')
  const { seedBase } = await import('./base')
  const config = loadConfig()
  const where = config.databaseUrl ? 'DATABASE_URL 指定的 PostgreSQL' : `内嵌数据库 ${config.dataDir}`
  let database
  try {
    database = await openDatabase(
      config.databaseUrl ? { databaseUrl: config.databaseUrl } : { dataDir: config.dataDir },
    )
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err)
    console.error(`无法打开${where}：${reason}`)
    if (!config.databaseUrl) {
      console.error(
        '内嵌数据库在服务运行时不能被其他进程打开：请先停止服务（npm start），再运行 npm run seed:demo。',
      )
    }
    process.exit(1)
  }
  const started = Date.now()
  try {
    console.log(`向${where}写入演示数据（${args.users} 个用户）...`)
    await seedBase(database.db, config)
    const summary = await seedDemo(database.db, {
      users: args.users,
      password: config.initialUserPassword,
      log: (line) => console.log(line),
    })
    console.log(`完成，用时 ${((Date.now() - started) / 1000).toFixed(1)} 秒：`, summary)
    console.log(
      `演示账号：${DEMO_ACCOUNTS.slice(0, args.users)
        .map((a) => `${a.nickName}（${a.roles.join('、')}）`)
        .join('、')}；所有演示用户的密码都是初始密码（INITIAL_USER_PASSWORD）。`,
    )
  } catch (err) {
    console.error(
      err instanceof DemoDataExistsError
        ? err.message
        : `生成演示数据失败：${err instanceof Error ? err.message : err}`,
    )
    process.exitCode = 1
  } finally {
    await database.close()
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err) => {
    console.error(err instanceof Error ? err.message : err)
    process.exit(1)
  })
}
