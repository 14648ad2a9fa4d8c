/**
 * The kinds of record the operation log names (DESIGN.md §9) and what the product calls each. The
 * server's table registry and the console's change table both read them; kept apart from the
 * schemas so the console can read them without bundling the schema library.
 */
export const RECORD_TYPE_LABELS = {
  user: '用户',
  role: '角色',
  group: '用户组',
  position: '岗位',
  auth: '权限',
  org: '部门',
  station: '职位',
  file: '文件',
  service: '服务',
} as const

export type RecordType = keyof typeof RECORD_TYPE_LABELS
