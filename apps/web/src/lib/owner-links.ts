import { MSG, routes, type PageResult } from '@amg/contract'
import type { CallDescription } from './can-call'

/** One page of what is linked, as the link panel asks for it. */
export interface LinkedQuery {
  pageNum: number
  pageSize: number
  keyword: string
}

/**
 * What is linked (roles, users, job titles) decides the panel's remove confirmation, its popover
 * button and the call its candidates come from; a link of a user carries a 到期时间 (DESIGN.md §20).
 */
export interface LinkKind {
  unlinkConfirm: string
  linkButtonText: string
  candidatesCall: CallDescription
  expiry?: boolean
}

export const ROLE_LINKS: LinkKind = {
  unlinkConfirm: MSG.confirmUnlinkRole,
  linkButtonText: '关联角色',
  candidatesCall: routes.role.nameList,
}

export const USER_LINKS: LinkKind = {
  unlinkConfirm: MSG.confirmUnlinkUser,
  linkButtonText: '关联用户',
  candidatesCall: routes.user.nameList,
  expiry: true,
}

/**
 * One kind of link an owner holds (a group's roles, a position's users, a department's job titles):
 * its calls, each taking the owner's id first, so one panel serves every owner.
 */
export interface OwnerLinks<T, C> {
  kind: LinkKind
  /** a member list may say how many members lie outside the caller's data scope (`outsideCount`) */
  list(ownerId: number, q: LinkedQuery): Promise<PageResult<T> & { outsideCount?: number }>
  /** one page of candidates; `total` tells whether more can be loaded */
  candidates(ownerId: number, keyword: string, pageNum: number): Promise<PageResult<C>>
  link(ownerId: number, ids: number[], expiresAt?: string | null): Promise<unknown>
  unlink(ownerId: number, ids: number[]): Promise<unknown>
  /** the routes linking and removing call: an action shows only to a user who may make it */
  calls: { link: CallDescription; unlink: CallDescription }
}
