import { zonedIso, type ReviewItemRow } from '@amg/contract'

/** The auditors' workbook of a campaign (DESIGN.md §21): every item and its decision. */
export const REVIEW_EXPORT_COLUMNS = [
  '用户',
  '角色',
  '获得方式',
  '来源',
  '最近使用',
  '建议',
  '决定',
  '备注',
  '决定人',
  '决定时间',
  '已执行',
] as const

const VIA = { direct: '直接', group: '用户组', position: '岗位' } as const
const DECISION = { keep: '保留', revoke: '撤销' } as const

const timeText = (at: Date | string | null, timeZone: string) =>
  at ? zonedIso(new Date(at), timeZone).slice(0, 19).replace('T', ' ') : ''

export const exportRow = (item: ReviewItemRow, timeZone: string): string[] => [
  item.nickName,
  item.roleName,
  VIA[item.via],
  item.viaName ?? '',
  item.lastUsedAt ? timeText(item.lastUsedAt, timeZone) : '从未使用',
  DECISION[item.recommendation],
  item.decision ? DECISION[item.decision] : '未决定',
  item.comment ?? '',
  item.decidedBy?.nickName ?? '',
  timeText(item.decidedAt, timeZone),
  item.applied ? '是' : '否',
]
