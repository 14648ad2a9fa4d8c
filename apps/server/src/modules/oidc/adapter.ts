import { and, eq, gt, isNull, or, sql } from 'drizzle-orm'
import type { Adapter, AdapterPayload } from 'oidc-provider'
import type { Db } from '../../db/connection'
import { oidcPayloads } from '../../db/schema'
import type { ClientDirectory } from './clients'

/**
 * oidc-provider's storage over our database (PGlite and PostgreSQL alike): one table keyed by model and
 * id, the payload as jsonb, with the lookups the provider makes (grant, interaction uid, user code)
 * indexed, and the user (`account_id`) so that freezing or a forced sign-out can end everything of
 * theirs in one statement (sessions.ts). Every instance reads the same rows, so a session or a token
 * made by one is known to all. Clients are not stored here: they are the services' sign-on settings
 * (clients.ts), held in memory there.
 */
export function adapterFor(db: Db, clients: ClientDirectory) {
  return class DbAdapter implements Adapter {
    constructor(private readonly model: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      const row = {
        payload: payload as Record<string, unknown>,
        grantId: payload.grantId ?? null,
        userCode: payload.userCode ?? null,
        uid: payload.uid ?? null,
        accountId: payload.accountId ?? null,
        expiresAt: expiresIn ? new Date(Date.now() + expiresIn * 1000) : null,
      }
      await db
        .insert(oidcPayloads)
        .values({ model: this.model, id, ...row })
        .onConflictDoUpdate({ target: [oidcPayloads.model, oidcPayloads.id], set: row })
    }

    private async findWhere(where: ReturnType<typeof eq>): Promise<AdapterPayload | undefined> {
      if (this.model === 'Client') return undefined
      const [row] = await db
        .select({ payload: oidcPayloads.payload, consumedAt: oidcPayloads.consumedAt })
        .from(oidcPayloads)
        .where(
          and(
            eq(oidcPayloads.model, this.model),
            where,
            or(isNull(oidcPayloads.expiresAt), gt(oidcPayloads.expiresAt, sql`now()`)),
          ),
        )
        .limit(1)
      if (!row) return undefined
      return {
        ...(row.payload as AdapterPayload),
        ...(row.consumedAt ? { consumed: Math.floor(row.consumedAt.getTime() / 1000) } : {}),
      }
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      if (this.model === 'Client') {
        const client = await clients.find(id)
        // a copy: what the provider is handed is its own, the held one stays as read
        return client ? structuredClone(client.metadata) : undefined
      }
      return this.findWhere(eq(oidcPayloads.id, id))
    }

    findByUid(uid: string) {
      return this.findWhere(eq(oidcPayloads.uid, uid))
    }

    findByUserCode(userCode: string) {
      return this.findWhere(eq(oidcPayloads.userCode, userCode))
    }

    async consume(id: string): Promise<void> {
      await db
        .update(oidcPayloads)
        .set({ consumedAt: sql`now()` })
        .where(and(eq(oidcPayloads.model, this.model), eq(oidcPayloads.id, id)))
    }

    async destroy(id: string): Promise<void> {
      await db.delete(oidcPayloads).where(and(eq(oidcPayloads.model, this.model), eq(oidcPayloads.id, id)))
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await db.delete(oidcPayloads).where(eq(oidcPayloads.grantId, grantId))
    }
  }
}
