import type { PageResult, UserSimple } from '@amg/contract'
import { post } from './http'

/** One page of the "link users" picker; 加载更多 asks for the next. */
export const USER_CANDIDATE_PAGE_SIZE = 10

/**
 * POST /user/namelist: users by nickName, ordered by id, leaving out those already in the group or
 * holding the position, so the group and position "link users" pickers never offer a linked user.
 */
export const fetchUserCandidates = (
  owner: { userGroupId: number } | { positionId: number },
  nickName: string,
  pageNum: number,
) =>
  post<PageResult<UserSimple>>('/user/namelist', {
    ...owner,
    nickName: nickName || undefined,
    pageNum,
    pageSize: USER_CANDIDATE_PAGE_SIZE,
  })
