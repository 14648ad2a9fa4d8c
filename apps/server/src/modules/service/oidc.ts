import { randomBytes } from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import { MSG, serviceAccountNameTaken, type OidcClientBody, type OidcClientInfo } from '@amg/contract'
import type { Db, DbOrTx } from '../../db/connection'
import { oidcClients, oidcPayloads, services, users } from '../../db/schema'
import type { PowerGuard } from '../../auth/power'
import { requireWritableUsers, type Caller } from '../../auth/user-scope'
import { badRequest, conflict, notFound } from '../../lib/errors'
import type { SecretBox } from '../../lib/secret-box'
import { MACHINE_TOKEN_TTL } from '../oidc/provider'
import { denyClientTokens } from '../oidc/token-denials'

/**
 * Applications (DESIGN.md §16): a service's single sign-on settings. The secret is made here, stored
 * encrypted and answered once. A machine client acts as its own service account, a user made with it
 * who has no usable password; its power is what roles it is given, like anyone's, so making or
 * rotating its secret is a change to that user (§6a: the caller must cover the account's power).
 */

const newSecret = () => randomBytes(32).toString('base64url')

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]'])

/** Redirect URIs: absolute, https except on this machine, no fragment; matched exactly by the provider. */
export function checkRedirectUris(type: string, uris: readonly string[]): string[] {
  const list = [...new Set(uris.map((u) => u.trim()))].filter(Boolean)
  if (type === 'machine') return []
  if (list.length === 0) throw badRequest(MSG.oidcRedirectUriRequired)
  for (const uri of list) {
    let url: URL
    try {
      url = new URL(uri)
    } catch {
      throw badRequest(MSG.oidcRedirectUriInvalid)
    }
    const local = LOCAL_HOSTS.has(url.hostname)
    if (url.hash || uri.includes('#')) throw badRequest(MSG.oidcRedirectUriInvalid)
    if (!(url.protocol === 'https:' || (url.protocol === 'http:' && local)))
      throw badRequest(MSG.oidcRedirectUriInvalid)
  }
  return list
}

async function serviceOf(tx: DbOrTx, serviceId: number) {
  const [service] = await tx.select().from(services).where(eq(services.id, serviceId))
  if (!service) throw notFound(MSG.serviceNotFound)
  return service
}

/**
 * The machine client's service account (DESIGN.md §11): made new, marked, with no password. Never a user
 * found by name: anyone who may add users could have made `svc-<key>` with a password they know, and
 * would sign in as whatever power the client is later given. A service account of that name left by
 * this service's earlier sign-on (turned off, or the service deleted and made again) is the system's
 * own and is taken up again; any other user of the name refuses with 409 until it is renamed or deleted.
 */
async function serviceAccount(tx: DbOrTx, key: string, existing: number | null): Promise<number> {
  if (existing) return existing
  const nickName = `svc-${key}`
  // names compare case-insensitively for this: `SVC-billing` made before the rule is the same name
  const [found] = await tx
    .select({ id: users.id, nickName: users.nickName, serviceAccount: users.serviceAccount })
    .from(users)
    .where(sql`lower(${users.nickName}) = ${nickName}`)
    .limit(1)
  if (found && !found.serviceAccount) throw conflict(serviceAccountNameTaken(found.nickName))
  if (found) {
    const [linked] = await tx
      .select({ id: oidcClients.serviceId })
      .from(oidcClients)
      .where(eq(oidcClients.serviceUserId, found.id))
      .limit(1)
    if (linked) throw conflict(serviceAccountNameTaken(found.nickName))
    return found.id
  }
  const [made] = await tx
    .insert(users)
    // '!' is no hash any password matches; the mark keeps it from every sign-in and password call
    .values({
      nickName,
      realName: `服务账号 ${key}`,
      passwordHash: '!',
      status: 1,
      passwordIsInitial: 0,
      mustChangePassword: 0,
      serviceAccount: true,
    })
    .returning({ id: users.id })
  return made.id
}

async function guardServiceAccount(tx: DbOrTx, power: PowerGuard, caller: Caller, userId: number | null) {
  if (!userId) return
  await requireWritableUsers(tx, caller, [userId])
  await power.require(tx, caller.id, { userIds: [userId] })
}

export async function oidcDetail(db: Db, serviceId: number, publicUrl: string): Promise<OidcClientInfo> {
  const service = await serviceOf(db, serviceId)
  const [row] = await db.select().from(oidcClients).where(eq(oidcClients.serviceId, serviceId))
  if (!row) return null
  return {
    clientId: service.key,
    type: row.type,
    redirectUris: row.redirectUris,
    requireConsent: row.requireConsent,
    enabled: row.enabled,
    hasSecret: row.secretEnc !== null,
    serviceUserId: row.serviceUserId,
    issuer: `${publicUrl}/oidc`,
  }
}

export async function saveOidcClient(
  db: Db,
  box: SecretBox,
  power: PowerGuard,
  caller: Caller,
  body: OidcClientBody,
): Promise<{ clientId: string; clientSecret: string | null }> {
  const redirectUris = checkRedirectUris(body.type, body.redirectUris)
  return db.transaction(async (tx) => {
    const service = await serviceOf(tx, body.serviceId)
    const [existing] = await tx.select().from(oidcClients).where(eq(oidcClients.serviceId, service.id))
    const needsSecret = body.type !== 'spa'
    // a secret is made when the application first needs one; later saves keep it (rotate-secret makes a new one)
    const secret = needsSecret && !existing?.secretEnc ? newSecret() : null
    const secretEnc = needsSecret ? (secret ? box.seal(secret) : existing!.secretEnc) : null
    const serviceUserId =
      body.type === 'machine' ? await serviceAccount(tx, service.key, existing?.serviceUserId ?? null) : null
    if (secret) await guardServiceAccount(tx, power, caller, serviceUserId)
    const values = {
      type: body.type,
      redirectUris,
      // a machine client has no users to ask; a web or spa application keeps its choice when none is given
      requireConsent:
        body.type === 'machine' ? false : (body.requireConsent ?? existing?.requireConsent ?? true),
      enabled: body.enabled ?? true,
      secretEnc,
      serviceUserId: serviceUserId ?? existing?.serviceUserId ?? null,
      updateTime: new Date(),
    }
    // a machine client turned into another kind, or disabled: the tokens it was given end now (§19)
    if (existing?.type === 'machine' && (body.type !== 'machine' || !values.enabled))
      await denyClientTokens(tx, service.key, MACHINE_TOKEN_TTL)
    if (existing) await tx.update(oidcClients).set(values).where(eq(oidcClients.serviceId, service.id))
    else await tx.insert(oidcClients).values({ serviceId: service.id, ...values })
    return { clientId: service.key, clientSecret: secret }
  })
}

export async function rotateOidcSecret(
  db: Db,
  box: SecretBox,
  power: PowerGuard,
  caller: Caller,
  serviceId: number,
): Promise<{ clientSecret: string }> {
  return db.transaction(async (tx) => {
    const service = await serviceOf(tx, serviceId)
    const [existing] = await tx.select().from(oidcClients).where(eq(oidcClients.serviceId, serviceId))
    if (!existing) throw badRequest(MSG.oidcNotEnabled)
    if (existing.type === 'spa') throw badRequest('单页应用没有密钥')
    await guardServiceAccount(tx, power, caller, existing.serviceUserId)
    const clientSecret = newSecret()
    await tx
      .update(oidcClients)
      .set({ secretEnc: box.seal(clientSecret), updateTime: new Date() })
      .where(eq(oidcClients.serviceId, service.id))
    return { clientSecret }
  })
}

/** Turns sign-on off: the application's grants and tokens end with it. */
export async function turnOidcOff(db: Db, serviceId: number): Promise<void> {
  await db.transaction(async (tx) => {
    const service = await serviceOf(tx, serviceId)
    const removed = await tx
      .delete(oidcClients)
      .where(eq(oidcClients.serviceId, serviceId))
      .returning({ id: oidcClients.serviceId })
    if (removed.length === 0) throw badRequest(MSG.oidcNotEnabled)
    await tx.delete(oidcPayloads).where(sql`${oidcPayloads.payload}->>'clientId' = ${service.key}`)
    // machine tokens are JWTs no row holds: every instance refuses them from now on (DESIGN.md §19)
    await denyClientTokens(tx, service.key, MACHINE_TOKEN_TTL)
  })
}
