import { lte } from 'drizzle-orm'
import type { Db } from '../../db/connection'
import { files } from '../../db/schema'
import type { FileStore } from './store'

export { ORPHAN_GRACE_MS } from './store'

export interface SweepResult {
  /** rows of expired files removed */
  expired: number
  /** files removed from the store (expired ones and leftovers without a row) */
  removedFiles: number
}

/**
 * Removes expired files: their rows first (so a download answers 404 at once), then the bytes.
 * Also removes leftovers of interrupted uploads: bytes with no row, older than ORPHAN_GRACE_MS.
 */
export async function sweepExpiredFiles(
  db: Db,
  store: FileStore,
  now: Date = new Date(),
): Promise<SweepResult> {
  const expired = await db
    .delete(files)
    .where(lte(files.expireTime, now))
    .returning({ storageName: files.storageName })
  let removedFiles = await store.remove(expired.map((r) => r.storageName))
  removedFiles += await store.removeLeftovers(now)
  return { expired: expired.length, removedFiles }
}
