import { routes } from '@amg/contract'
import { request } from './route-call'

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
  request(routes.user.nameList, {
    body: { ...owner, nickName: nickName || undefined, pageNum, pageSize: USER_CANDIDATE_PAGE_SIZE },
  })
