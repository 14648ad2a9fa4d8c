import { eq } from 'drizzle-orm'
import { DIRECTORY_MSG, type LdapSettingsBody, type LdapSettingsData } from '@amg/contract'
import type { DbOrTx } from '../../db/connection'
import { ldapSettings } from '../../db/schema'
import type { SecretBox } from '../../lib/secret-box'
import { badRequest } from '../../lib/errors'

/** The LDAP settings (DESIGN.md §22): one row; the bind password sealed and never answered. */

export type LdapSettings = Omit<LdapSettingsBody, 'bindPassword'> & { bindPassword: string }

/** A filter is at least balanced parentheses around something: the directory says the rest. */
const filterOk = (filter: string) => {
  const f = filter.trim()
  if (!f.startsWith('(') || !f.endsWith(')')) return false
  let depth = 0
  for (const ch of f) {
    depth += ch === '(' ? 1 : ch === ')' ? -1 : 0
    if (depth < 0) return false
  }
  return depth === 0
}

/** 400 with the first problem of a settings body the schema let through. */
export function requireSettingsSound(body: LdapSettingsBody): void {
  if (!/^ldaps?:\/\/[^\s/]+\/?$/i.test(body.url.trim())) throw badRequest(DIRECTORY_MSG.urlInvalid)
  if (!body.bindDn.trim()) throw badRequest(DIRECTORY_MSG.bindDnRequired)
  if (!body.baseDn.trim()) throw badRequest(DIRECTORY_MSG.baseDnRequired)
  if (!filterOk(body.userFilter)) throw badRequest(DIRECTORY_MSG.filterInvalid('用户过滤条件'))
  if (!filterOk(body.groupFilter)) throw badRequest(DIRECTORY_MSG.filterInvalid('用户组过滤条件'))
  if (!body.attributes.nickName.trim()) throw badRequest(DIRECTORY_MSG.attributeRequired('登录名'))
  if (body.departmentFrom === 'attribute' && !body.attributes.department?.trim())
    throw badRequest(DIRECTORY_MSG.attributeRequired('部门'))
  if (!body.defaultStationName.trim()) throw badRequest(DIRECTORY_MSG.stationRequired)
}

type Row = typeof ldapSettings.$inferSelect

const dataOf = (row: Row): LdapSettingsData => ({
  enabled: row.enabled,
  url: row.url,
  bindDn: row.bindDn,
  baseDn: row.baseDn,
  userFilter: row.userFilter,
  groupFilter: row.groupFilter,
  attributes: row.attributes as LdapSettingsData['attributes'],
  departmentFrom: row.departmentFrom === 'attribute' ? 'attribute' : 'ou',
  defaultStationName: row.defaultStationName,
  startTls: row.startTls,
  syncMinutes: row.syncMinutes,
  bindPasswordSet: !!row.bindPassword,
})

/** What a fresh system shows: an OpenLDAP-shaped start, not enabled. */
export const DEFAULT_LDAP: LdapSettingsData = {
  enabled: false,
  url: 'ldap://127.0.0.1:389',
  bindDn: '',
  baseDn: '',
  userFilter: '(objectClass=inetOrgPerson)',
  groupFilter: '(objectClass=groupOfNames)',
  attributes: { nickName: 'uid', realName: 'cn', mobile: 'mobile' },
  departmentFrom: 'ou',
  defaultStationName: '员工',
  startTls: false,
  syncMinutes: 0,
  bindPasswordSet: false,
}

async function readRow(db: DbOrTx): Promise<Row | undefined> {
  const [row] = await db.select().from(ldapSettings).where(eq(ldapSettings.id, 1))
  return row
}

/** GET /settings/ldap */
export async function readLdapData(db: DbOrTx): Promise<LdapSettingsData> {
  const row = await readRow(db)
  return row ? dataOf(row) : { ...DEFAULT_LDAP }
}

/** The saved settings with the password opened; null when none are saved. */
export async function readLdapSettings(
  db: DbOrTx,
  box: SecretBox,
): Promise<(LdapSettings & { updateUserId: number | null }) | null> {
  const row = await readRow(db)
  if (!row) return null
  const { bindPasswordSet: _, ...data } = dataOf(row)
  return {
    ...data,
    bindPassword: row.bindPassword ? box.open(row.bindPassword) : '',
    updateUserId: row.updateUserId,
  }
}

/** A body as it will run: an empty password means the saved one. */
export async function withSavedPassword(
  db: DbOrTx,
  box: SecretBox,
  body: LdapSettingsBody,
): Promise<LdapSettings> {
  if (body.bindPassword) return { ...body, bindPassword: body.bindPassword }
  const saved = await readRow(db)
  return { ...body, bindPassword: saved?.bindPassword ? box.open(saved.bindPassword) : '' }
}

/** PUT /settings/ldap: replaced whole; the password kept when none is given. */
export async function writeLdapSettings(db: DbOrTx, box: SecretBox, body: LdapSettingsBody, userId: number) {
  const { bindPassword, ...rest } = body
  const values = {
    ...rest,
    url: rest.url.trim(),
    bindDn: rest.bindDn.trim(),
    baseDn: rest.baseDn.trim(),
    defaultStationName: rest.defaultStationName.trim(),
    ...(bindPassword ? { bindPassword: box.seal(bindPassword) } : {}),
    updateUserId: userId,
    updateTime: new Date(),
  }
  await db
    .insert(ldapSettings)
    .values({ id: 1, ...values })
    .onConflictDoUpdate({ target: ldapSettings.id, set: values })
}
