import type { DbOrTx } from '../../db/connection'
import { stageEvents } from '../../events/stage'

/** The events of a request's steps (DESIGN.md §17, §20): thin, consumers ask `effective` for more. */
export type AccessEvent = 'access.requested' | 'access.approved' | 'access.rejected' | 'access.expired'

export const accessEvent = (
  type: AccessEvent,
  request: { id: number; requesterId: number; roleId: number },
) => ({ type, payload: { requestId: request.id, userId: request.requesterId, roleId: request.roleId } })

export const stageAccessEvent = (
  db: DbOrTx,
  type: AccessEvent,
  request: { id: number; requesterId: number; roleId: number },
) => stageEvents(db, [accessEvent(type, request)])
