import { attrOf, matches, parseFilter, type Filter } from './filter'
import { scimBad, SCIM_MSG } from './errors'

/**
 * PATCH (RFC 7644 §3.5.2) applied to a resource's JSON in memory; the resource's own mapper then
 * turns the result into the product's call (users.ts, groups.ts), so a PATCH is judged exactly as a
 * PUT of the same resource would be. Okta's and Entra's shapes are read as they send them: op names
 * in any case, ops without a path carrying an object (whose keys may be paths themselves:
 * `name.givenName`, an extension's URN), `replace members []`, members without `type`, remove by a
 * value filter or by a list of values.
 */

export const PATCH_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp'

export interface PatchOp {
  op: 'add' | 'replace' | 'remove'
  path?: string
  value?: unknown
}

type Doc = Record<string, unknown>

/** Attributes that hold lists, whose `add` appends rather than replaces. */
const MULTI = new Set([
  'members',
  'phonenumbers',
  'emails',
  'addresses',
  'groups',
  'roles',
  'entitlements',
  'ims',
  'photos',
  'x509certificates',
])

/** The core schemas whose URN may lead a path (`urn:…:core:2.0:User:userName`). */
const CORE_PREFIX = /^urn:ietf:params:scim:schemas:core:2\.0:(User|Group):/i

const isObject = (v: unknown): v is Doc => !!v && typeof v === 'object' && !Array.isArray(v)

/** The operations of a PATCH body, or 400 (invalidSyntax, or invalidValue for an unknown op). */
export function readPatch(body: unknown): PatchOp[] {
  if (!isObject(body)) throw scimBad('invalidSyntax', SCIM_MSG.badBody)
  const schemas = body.schemas
  if (!Array.isArray(schemas) || !schemas.includes(PATCH_SCHEMA))
    throw scimBad('invalidSyntax', `${SCIM_MSG.badSchemas}：${PATCH_SCHEMA}`)
  const ops = attrOf(body, 'Operations')
  if (!Array.isArray(ops) || ops.length === 0 || ops.length > 1000)
    throw scimBad('invalidSyntax', 'PATCH 请求必须包含 Operations 数组')
  return ops.map((raw) => {
    if (!isObject(raw)) throw scimBad('invalidSyntax', SCIM_MSG.badOp)
    const op = String(attrOf(raw, 'op') ?? '').toLowerCase()
    if (op !== 'add' && op !== 'replace' && op !== 'remove') throw scimBad('invalidValue', SCIM_MSG.badOp)
    const path = attrOf(raw, 'path')
    if (path !== undefined && path !== null && typeof path !== 'string')
      throw scimBad('invalidPath', SCIM_MSG.badPath)
    return { op, path: path ? path.trim() : undefined, value: attrOf(raw, 'value') }
  })
}

interface Path {
  /** the attribute, or an extension's URN */
  attr: string
  filter?: Filter
  sub?: string
}

const PATH = /^([A-Za-z][\w$-]*)(?:\[(.+)\])?(?:\.([A-Za-z][\w$-]*))?$/

function parsePath(text: string): Path {
  const bad = () => scimBad('invalidPath', `${SCIM_MSG.badPath}：${text.slice(0, 200)}`)
  let rest = text.replace(CORE_PREFIX, '')
  if (/^urn:/i.test(rest)) {
    // an extension's attribute: `urn:…:enterprise:2.0:User:department` (kept under its URN)
    const colon = rest.lastIndexOf(':')
    const sub = rest.slice(colon + 1)
    if (!/^[A-Za-z][\w$-]*(\.[A-Za-z][\w$-]*)?$/.test(sub)) throw bad()
    return { attr: rest.slice(0, colon), sub: sub.split('.')[0] }
  }
  rest = rest.trim()
  const m = PATH.exec(rest)
  if (!m) throw bad()
  const filter = m[2] !== undefined ? parseFilter(m[2], SCIM_MSG.badPath) : undefined
  return { attr: m[1], filter, sub: m[3] }
}

/** Sets an attribute, keeping the case of a key already there. */
function setAttr(doc: Doc, name: string, value: unknown) {
  const key = Object.keys(doc).find((k) => k.toLowerCase() === name.toLowerCase()) ?? name
  doc[key] = value
}

function deleteAttr(doc: Doc, name: string) {
  for (const k of Object.keys(doc)) if (k.toLowerCase() === name.toLowerCase()) delete doc[k]
}

const valueKey = (v: unknown) => (isObject(v) ? String(attrOf(v, 'value') ?? JSON.stringify(v)) : String(v))

/** Appends to a list, leaving out what is there already (an id added twice is one member). */
function appendTo(current: unknown[], added: unknown[]): unknown[] {
  const seen = new Set(current.map(valueKey))
  const out = [...current]
  for (const v of added) {
    const key = valueKey(v)
    if (!seen.has(key)) {
      seen.add(key)
      out.push(v)
    }
  }
  return out
}

/** The simple `attr eq value` a filter is, when it is one: what a new element is made from. */
function eqParts(filter: Filter): [string, unknown] | undefined {
  return filter.op === 'eq' ? [filter.attr, filter.value] : undefined
}

function applyFiltered(doc: Doc, op: PatchOp, path: Path & { filter: Filter }) {
  const current = attrOf(doc, path.attr)
  const list = Array.isArray(current) ? current : []
  const hit = (e: unknown) => matches(path.filter, e)
  if (op.op === 'remove') {
    // removing what is not there is harmless, as unlinking is (DESIGN.md §7)
    const kept = path.sub
      ? list.map((e) => {
          if (!hit(e) || !isObject(e)) return e
          const copy = { ...e }
          deleteAttr(copy, path.sub!)
          return copy
        })
      : list.filter((e) => !hit(e))
    setAttr(doc, path.attr, kept)
    return
  }
  if (!list.some(hit)) {
    // Entra adds `phoneNumbers[type eq "work"].value` when there is none yet: make the element
    const parts = eqParts(path.filter)
    if (!parts) throw scimBad('noTarget', `${SCIM_MSG.noTarget}：${op.path}`)
    const made: Doc = path.sub
      ? { [parts[0]]: parts[1], [path.sub]: op.value }
      : { ...(isObject(op.value) ? op.value : {}), [parts[0]]: parts[1] }
    setAttr(doc, path.attr, [...list, made])
    return
  }
  setAttr(
    doc,
    path.attr,
    list.map((e) => {
      if (!hit(e)) return e
      if (path.sub) {
        const copy = isObject(e) ? { ...e } : {}
        setAttr(copy, path.sub, op.value)
        return copy
      }
      return op.op === 'add' && isObject(e) && isObject(op.value) ? { ...e, ...op.value } : op.value
    }),
  )
}

function applyPath(doc: Doc, op: PatchOp, path: Path) {
  const attr = path.attr.toLowerCase()
  // Okta's rename carries the group's own id beside the new name: the same id changes nothing
  if (attr === 'id' && !path.filter && !path.sub && String(op.value) === String(attrOf(doc, 'id'))) return
  if (attr === 'id' || attr === 'meta' || attr === 'schemas')
    throw scimBad('mutability', `${SCIM_MSG.idMutable}：${path.attr}`)
  if (path.filter) return applyFiltered(doc, op, path as Path & { filter: Filter })
  if (path.sub) {
    const container = attrOf(doc, path.attr)
    const object = isObject(container) ? { ...container } : {}
    if (op.op === 'remove') deleteAttr(object, path.sub)
    else setAttr(object, path.sub, op.value)
    setAttr(doc, path.attr, object)
    return
  }
  const current = attrOf(doc, path.attr)
  const multi = MULTI.has(path.attr.toLowerCase()) || Array.isArray(current)
  if (op.op === 'remove') {
    // Entra removes members by listing them: `remove members [{ value }]`
    if (multi && Array.isArray(current) && op.value !== undefined && op.value !== null) {
      const gone = new Set((Array.isArray(op.value) ? op.value : [op.value]).map(valueKey))
      setAttr(
        doc,
        path.attr,
        current.filter((e) => !gone.has(valueKey(e))),
      )
    } else deleteAttr(doc, path.attr)
    return
  }
  if (multi) {
    const given =
      op.value === null || op.value === undefined ? [] : Array.isArray(op.value) ? op.value : [op.value]
    setAttr(doc, path.attr, op.op === 'add' ? appendTo(Array.isArray(current) ? current : [], given) : given)
    return
  }
  // a complex attribute (name) takes the sub-attributes given and keeps the others
  if (isObject(current) && isObject(op.value)) setAttr(doc, path.attr, { ...current, ...op.value })
  else setAttr(doc, path.attr, op.value)
}

/** Applies the operations to a copy of `resource`, in order; the first that fails fails them all. */
export function applyPatch(resource: Doc, ops: PatchOp[]): Doc {
  const doc = structuredClone(resource)
  for (const op of ops) {
    if (op.path) {
      applyPath(doc, op, parsePath(op.path))
      continue
    }
    if (op.op === 'remove') throw scimBad('noTarget', SCIM_MSG.noTargetPath)
    if (!isObject(op.value)) throw scimBad('invalidValue', 'add/replace 未给出路径时，value 必须是对象')
    for (const [key, value] of Object.entries(op.value)) {
      if (key.toLowerCase() === 'schemas') continue
      applyPath(doc, { op: op.op, path: key, value }, parsePath(key))
    }
  }
  return doc
}
