import { Envelope, NullData } from '../schemas/common'
import {
  ReviewCampaignPage,
  ReviewCloseBody,
  ReviewCreated,
  ReviewDecideBody,
  ReviewIdQuery,
  ReviewInsertBody,
  ReviewItemPage,
  ReviewItemsBody,
  ReviewListBody,
  UsageQuery,
  UsageResult,
} from '../schemas/review'
import { bindSchemas } from './route'
import { reviewRoutes, usageRoutes } from './review'

const XLSX = { produces: ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'] }

export const reviewSchemas = {
  list: { body: ReviewListBody, response: { 200: Envelope(ReviewCampaignPage) } },
  inbox: { body: ReviewListBody, response: { 200: Envelope(ReviewCampaignPage) } },
  insert: { body: ReviewInsertBody, response: { 200: Envelope(ReviewCreated) } },
  items: { body: ReviewItemsBody, response: { 200: Envelope(ReviewItemPage) } },
  decide: { body: ReviewDecideBody, response: { 200: NullData } },
  close: { body: ReviewCloseBody, response: { 200: NullData } },
  export: { querystring: ReviewIdQuery, ...XLSX },
}

export const usageSchemas = {
  usage: { querystring: UsageQuery, response: { 200: Envelope(UsageResult) } },
}

export const reviewApi = bindSchemas(reviewRoutes, reviewSchemas)
export const usageApi = bindSchemas(usageRoutes, usageSchemas)
