/** The department calls' own messages. */
export const ORG_MSG = {
  notFound: '部门不存在',
  parentNotFound: '上级部门不存在',
  siblingExists: '同级部门名称已存在',
  hasChildren: '该部门下还有子部门，不能删除',
  rootDelete: '根部门不能删除',
  rootMove: '根部门不能移动',
  moveIntoSelf: '不能把部门移到它自己或它的下级部门之下',
  stationIdsInvalid: '职位ID列表格式不正确',
} as const

export const stationsMissing = (ids: number[]) => `职位不存在（id: ${ids.join(',')}）`
