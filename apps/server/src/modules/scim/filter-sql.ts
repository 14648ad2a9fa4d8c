import { sql, type SQL } from 'drizzle-orm'
import type { PgColumn } from 'drizzle-orm/pg-core'
import { containsPattern, prefixPattern } from '../../lib/like'
import type { Filter } from './filter'
import { scimBad, SCIM_MSG } from './errors'

/**
 * A parsed filter as SQL over a resource's columns, so paging and totalResults are counted by the
 * database. Only the attributes a resource names are filterable; any other is `invalidFilter`.
 */

export interface FilterColumn {
  column: PgColumn | SQL
  /** RFC 7643's caseExact: userName and displayName compare in any case, externalId and id exactly */
  caseExact: boolean
  /** the id: values are numbers, written as strings by SCIM */
  numeric?: boolean
}

/** The attribute's name without its schema's URN (`urn:…:core:2.0:User:userName` → `username`). */
export const bareAttr = (attr: string) => {
  const colon = attr.lastIndexOf(':')
  return (colon >= 0 ? attr.slice(colon + 1) : attr).toLowerCase()
}

const endsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}`

export function filterSql(filter: Filter, columns: Record<string, FilterColumn>): SQL {
  switch (filter.op) {
    case 'and':
      return sql`(${filterSql(filter.left, columns)} and ${filterSql(filter.right, columns)})`
    case 'or':
      return sql`(${filterSql(filter.left, columns)} or ${filterSql(filter.right, columns)})`
    case 'not':
      return sql`not coalesce(${filterSql(filter.filter, columns)}, false)`
  }
  const target = columns[bareAttr(filter.attr)]
  if (!target) throw scimBad('invalidFilter', `${SCIM_MSG.badFilter}：不支持按 ${filter.attr} 过滤`)
  const col = target.column
  if (filter.op === 'pr')
    return target.numeric ? sql`${col} is not null` : sql`(${col} is not null and ${col} <> '')`
  const raw = filter.value
  if (target.numeric) {
    const id =
      typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d{1,9}$/.test(raw) ? Number(raw) : NaN
    if (!Number.isInteger(id)) return filter.op === 'ne' ? sql`true` : sql`false`
    const ops: Record<string, SQL> = {
      eq: sql`${col} = ${id}`,
      ne: sql`${col} <> ${id}`,
      gt: sql`${col} > ${id}`,
      ge: sql`${col} >= ${id}`,
      lt: sql`${col} < ${id}`,
      le: sql`${col} <= ${id}`,
    }
    const found = ops[filter.op]
    if (!found) throw scimBad('invalidFilter', `${SCIM_MSG.badFilter}：id 不支持 ${filter.op}`)
    return found
  }
  if (typeof raw !== 'string')
    throw scimBad('invalidFilter', `${SCIM_MSG.badFilter}：${filter.attr} 的值必须是字符串`)
  const exact = target.caseExact
  const left = exact ? col : sql`lower(${col})`
  const value = exact ? raw : raw.toLowerCase()
  const like = exact ? sql`like` : sql`ilike`
  switch (filter.op) {
    case 'eq':
      return sql`${left} = ${value}`
    case 'ne':
      return sql`${left} is distinct from ${value}`
    case 'co':
      return sql`${col} ${like} ${containsPattern(raw)}`
    case 'sw':
      return sql`${col} ${like} ${prefixPattern(raw)}`
    case 'ew':
      return sql`${col} ${like} ${endsPattern(raw)}`
    case 'gt':
      return sql`${left} > ${value}`
    case 'ge':
      return sql`${left} >= ${value}`
    case 'lt':
      return sql`${left} < ${value}`
    case 'le':
      return sql`${left} <= ${value}`
  }
}
