import { routes, type ReviewDecision, type ReviewInsertBody } from '@amg/contract'
import { request } from '../../lib/route-call'

/** Every query of this screen family starts with it, so a write refreshes them all. */
export const REVIEW_KEY = ['review'] as const

export const listCampaigns = (body: {
  pageNum: number
  pageSize: number
  name?: string
  status?: 'open' | 'closed'
}) => request(routes.review.list, { body })

/** Campaigns the signed-in user reviews. */
export const listInbox = (body: { pageNum: number; pageSize: number; name?: string }) =>
  request(routes.review.inbox, { body })

export const insertCampaign = (body: ReviewInsertBody) => request(routes.review.insert, { body })

export const listItems = (body: {
  campaignId: number
  pageNum: number
  pageSize: number
  decided?: boolean
}) => request(routes.review.items, { body })

export const decideItems = (itemIds: number[], decision: ReviewDecision, comment?: string) =>
  request(routes.review.decide, { body: { itemIds, decision, comment } })

export const closeCampaign = (id: number) => request(routes.review.close, { body: { id } })
