import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify'
import { NAME_KEYWORD, NAME_SEARCH_KEYWORD, checkName, normalizeName } from '@amg/contract'
import { badRequest } from './errors'

/**
 * Names (packages/contract names.ts, DESIGN.md §11): the fields a route's schema marks as a name are
 * normalised, and refused with the field's own message when they hold invisible or look-alike
 * characters; fields marked as searching names are normalised only. It runs before validation, so
 * the schema's own rules (required, length, a department name's '-') judge the normalised name, and
 * every service receives names in the one form they are stored in.
 */

interface NameField {
  field: string
  /** the label the messages use; null for a search box (normalised, never refused) */
  label: string | null
}

type Schema = Record<string, unknown>

/** The mark on a property's schema, looking into the unions that make a field optional or nullable. */
function markOf(schema: Schema | undefined): NameField['label'] | undefined {
  if (!schema || typeof schema !== 'object') return undefined
  if (typeof schema[NAME_KEYWORD] === 'string') return schema[NAME_KEYWORD] as string
  if (schema[NAME_SEARCH_KEYWORD] === true) return null
  for (const key of ['anyOf', 'oneOf', 'allOf']) {
    const branches = schema[key]
    if (!Array.isArray(branches)) continue
    for (const branch of branches) {
      const mark = markOf(branch as Schema)
      if (mark !== undefined) return mark
    }
  }
  return undefined
}

/** The name fields of one part of a request (its body or query), from the part's object schema. */
export function nameFields(schema: unknown): NameField[] {
  const properties = (schema as Schema | undefined)?.properties as Record<string, Schema> | undefined
  if (!properties) return []
  const fields: NameField[] = []
  for (const [field, property] of Object.entries(properties)) {
    const label = markOf(property)
    if (label !== undefined) fields.push({ field, label })
  }
  return fields
}

/** Normalises and checks the name fields of one part (a body) as the guard does before validation. */
export function normalizeFields(part: unknown, fields: NameField[]) {
  if (!part || typeof part !== 'object' || Array.isArray(part)) return
  const values = part as Record<string, unknown>
  for (const { field, label } of fields) {
    const value = values[field]
    if (typeof value !== 'string') continue
    if (label !== null) {
      const problem = checkName(value, label)
      if (problem) throw badRequest(problem)
    }
    values[field] = normalizeName(value)
  }
}

export function installNameGuard(api: FastifyInstance) {
  api.addHook('onRoute', (route: RouteOptions) => {
    const body = nameFields(route.schema?.body)
    const query = nameFields(route.schema?.querystring)
    if (body.length === 0 && query.length === 0) return
    // a callback hook: nothing here waits
    const guard = (req: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void) => {
      try {
        normalizeFields(req.body, body)
        normalizeFields(req.query, query)
      } catch (err) {
        return done(err as Error)
      }
      done()
    }
    const existing = route.preValidation
    route.preValidation =
      existing === undefined ? [guard] : Array.isArray(existing) ? [...existing, guard] : [existing, guard]
  })
}
