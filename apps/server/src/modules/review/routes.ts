import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply } from 'fastify'
import { MSG, REVIEW_MSG, reviewApi, usageApi } from '@amg/contract'
import { ok } from '../../lib/reply'
import { route } from '../../lib/route'
import { currentUser } from '../../lib/context'
import { callerOf, requireReadableUser } from '../../auth/user-scope'
import { attachment, downloadStamp, streamWorkbook, XLSX_TYPE } from '../../lib/workbook'
import { insertCampaign } from './campaign-insert'
import { allItems, campaignStatus, listCampaigns, listItems } from './campaign-read'
import { closeCampaign, decideItems } from './decide-close'
import { REVIEW_EXPORT_COLUMNS, exportRow } from './export'

/** DESIGN.md §21: access reviews, and the usage they recommend from. */
export const reviewRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, authz, links, usage, config } = app.ctx

  route(app, reviewApi.list, async (req) => ok(await listCampaigns(db, req.body ?? {})))

  route(app, reviewApi.inbox, async (req) => ok(await listCampaigns(db, req.body ?? {}, currentUser(req).id)))

  route(app, reviewApi.insert, async (req) =>
    ok(await insertCampaign(db, usage, await callerOf(authz, req), req.body), MSG.created),
  )

  route(app, reviewApi.items, async (req) => ok(await listItems(db, req.body, await callerOf(authz, req))))

  route(app, reviewApi.decide, async (req) => {
    await decideItems(db, currentUser(req).id, req.body)
    return ok(null, REVIEW_MSG.decided)
  })

  route(app, reviewApi.close, async (req) => {
    await closeCampaign(db, authz, links, currentUser(req).id, req.body.id)
    return ok(null, REVIEW_MSG.closed)
  })

  route(app, reviewApi.export, async (req, reply) => {
    const campaign = await campaignStatus(db, req.query.id)
    const caller = await callerOf(authz, req)
    const stamp = downloadStamp(config.timeZone)
    const rows = (async function* () {
      for await (const item of allItems(db, campaign.id, caller)) yield exportRow(item, config.timeZone)
    })()
    return (reply as FastifyReply)
      .type(XLSX_TYPE)
      .header(
        'content-disposition',
        attachment(`review-${campaign.id}-${stamp}.xlsx`, `权限复核-${campaign.name}-${stamp}.xlsx`),
      )
      .header('cache-control', 'no-store')
      .send(streamWorkbook('复核结果', REVIEW_EXPORT_COLUMNS, rows))
  })

  // a user's last use of each node: only users the caller may read (DESIGN.md §13)
  route(app, usageApi.usage, async (req) => {
    await requireReadableUser(db, await callerOf(authz, req), req.query.userId)
    const uses = (await usage.lastUses(db, [req.query.userId])).get(req.query.userId) ?? new Map()
    const list = [...uses.entries()]
      .map(([nodeCode, lastUsedAt]) => ({ nodeCode, lastUsedAt }))
      .sort((a, b) => b.lastUsedAt.getTime() - a.lastUsedAt.getTime() || (a.nodeCode < b.nodeCode ? -1 : 1))
    return ok({ list })
  })
}
