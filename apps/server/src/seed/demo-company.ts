import type { SeedAuthNode } from '../db/seed-auth-tree'

/**
 * The demo company's people and places (seed/demo.ts writes them): the department tree with the job
 * titles each holds, the accounts the README names, and the demo service behind a gateway.
 */

export const DEMO_MARKER_ORG = '研发中心'

export interface DemoAccount {
  nickName: string
  realName: string
  /** roles linked to the account directly */
  roles: readonly string[]
  /** the department and job title of the account's one position (its title brings no role beyond the account's own) */
  home: { dept: string; title: string }
}

const account = (nickName: string, realName: string, roles: string[], dept: string, title: string) => ({
  nickName,
  realName,
  roles,
  home: { dept, title },
})

/** Accounts with a known role, created first so the README can name them. */
export const DEMO_ACCOUNTS: readonly DemoAccount[] = [
  account('demo_hr', '林晓雯', ['人事专员'], '招聘组', '招聘专员'),
  account('demo_audit', '周建国', ['只读审计'], '会计组', '会计'),
  account('demo_org', '陈思远', ['组织架构管理员'], '后勤组', '行政专员'),
  account('demo_staff', '张小北', ['普通员工'], 'Web组', '前端工程师'),
  // DESIGN.md §13: creates orders as herself only (仅本人) and reads her department's (本部门)
  account('demo_orders', '吴佳怡', ['订单专员', '订单查看'], '商务组', '商务专员'),
  // DESIGN.md §13: department administrators, one role reaching each holder's department and below
  account('demo_rd_admin', '郑宇航', ['部门管理员'], '研发中心', '技术总监'),
  account('demo_sales_admin', '何雅琴', ['部门管理员'], '销售部', '销售总监'),
]

/**
 * The demo service behind a gateway (DESIGN.md §10a): its own permission subtree, whose patterns
 * are its paths as its gateway forwards them. Nothing here opens this server's own API.
 */
export const DEMO_SERVICE = { key: 'orders', name: '订单服务' } as const
export const DEMO_SERVICE_TREE: SeedAuthNode = {
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

export interface DeptSpec {
  name: string
  description?: string
  /** job titles held in this department */
  stations?: string[]
  children?: DeptSpec[]
}

const DEV = ['前端工程师', '高级前端工程师']
const BACK = ['后端工程师', '高级后端工程师']

export const COMPANY: DeptSpec[] = [
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
export const EVERYWHERE = ['实习生']
