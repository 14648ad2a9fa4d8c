import { sql } from 'drizzle-orm'
import type { DbOrTx } from '../db/connection'
import type { ChangeEventDraft } from './derive'

/**
 * For a change no audit trigger sees (a session ended: sessions are not audited records), the module
 * stages its event in the transaction, as the triggers stage rows; the operation log's writer takes
 * it with the rest (events/outbox.ts). A transaction-local setting: a rollback takes it away.
 */
export async function stageEvents(db: DbOrTx, drafts: ChangeEventDraft[]): Promise<void> {
  if (drafts.length === 0) return
  await db.execute(
    sql`select set_config('amg.events',
      (coalesce(nullif(current_setting('amg.events', true), ''), '[]')::jsonb || ${JSON.stringify(drafts)}::jsonb)::text,
      true)`,
  )
}
