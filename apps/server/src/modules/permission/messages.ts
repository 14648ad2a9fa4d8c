/** The permission tree's refusals (SPEC.md §7 "Auth"). */
export const AUTH_NOT_FOUND = '权限不存在'
export const PARENT_NOT_FOUND = '上级权限不存在'
export const DELETE_HAS_CHILDREN = '请先删除下级权限'
export const MOVE_UNDER_ITSELF = '不能把权限移动到它自己或它的下级之下'
export const UNIQUE_KEY_EXISTS = '唯一标识已存在'
