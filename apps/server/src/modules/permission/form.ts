import {
  splitFrontEndAccess,
  URL_PATTERN_METHODS,
  type AuthInsertBody,
  type UrlPatternInfo,
} from '@amg/contract'
import { badRequest } from '../../lib/errors'
import type { NodePower } from '../../auth/power'

/** A permission node's form as it is stored, and as the power check sees it. */

export interface CleanAuth {
  chName: string
  enName: string
  description: string | null
  frontEndAccess: string[]
  parentCode: string | null
  seq: number
  status: number
  type: number
  uniqueKey: string | null
  urlPatternInfos: UrlPatternInfo[]
}

const blankToNull = (v: string | null | undefined) =>
  v === undefined || v === null || v.trim() === '' ? null : v.trim()

/** Normalizes the form: trimmed texts, front-end patterns split and trimmed, methods upper-cased, duplicates dropped. */
export function clean(body: AuthInsertBody): CleanAuth {
  const raw = Array.isArray(body.frontEndAccessList)
    ? body.frontEndAccessList.join(',')
    : body.frontEndAccessList
  const frontEndAccess = [...new Set(splitFrontEndAccess(raw))]
  const badFront = frontEndAccess.find((p) => !p.startsWith('/'))
  if (badFront !== undefined) throw badRequest(`前端路由必须以 / 开头：${badFront}`)
  const urlPatternInfos: UrlPatternInfo[] = []
  for (const info of body.urlPatternInfos) {
    const method = info.method.trim().toUpperCase()
    const uri = info.uri.trim()
    if (!(URL_PATTERN_METHODS as readonly string[]).includes(method))
      throw badRequest(`不支持的请求方法：${info.method}`)
    if (!uri.startsWith('/')) throw badRequest(`后端接口必须以 / 开头：${info.uri}`)
    if (!urlPatternInfos.some((p) => p.method === method && p.uri === uri))
      urlPatternInfos.push({ method, uri })
  }
  return {
    chName: body.chName.trim(),
    enName: body.enName.trim(),
    description: blankToNull(body.description),
    frontEndAccess,
    parentCode: blankToNull(body.parentCode),
    seq: body.seq ?? 1,
    status: body.status,
    type: body.type,
    uniqueKey: blankToNull(body.uniqueKey),
    urlPatternInfos,
  }
}

/** A node as the power check sees it (DESIGN.md §6a): its name and patterns, in its service. */
export const nodePower = (data: CleanAuth, service: string): NodePower => ({
  chName: data.chName,
  frontEnd: data.frontEndAccess,
  backEnd: data.urlPatternInfos,
  service,
})
