import fsp from 'node:fs/promises'
import path from 'node:path'
import { inArray, lte } from 'drizzle-orm'
import type { Db } from '../../db/connection'
import { files } from '../../db/schema'
import { filesDir } from './service'

/** A file on disk without a row this long after it was written is left over from an interrupted upload. */
export const ORPHAN_GRACE_MS = 60 * 60 * 1000

export interface SweepResult {
  /** rows of expired files removed */
  expired: number
  /** files on disk removed (expired ones and leftovers without a row) */
  removedFiles: number
}

/**
 * Removes expired files: their rows first (so a download answers 404 at once), then the bytes.
 * Also removes leftovers of interrupted uploads: files with no row, older than ORPHAN_GRACE_MS.
 */
export async function sweepExpiredFiles(
  db: Db,
  dataDir: string,
  now: Date = new Date(),
): Promise<SweepResult> {
  const dir = filesDir(dataDir)
  const expired = await db
    .delete(files)
    .where(lte(files.expireTime, now))
    .returning({ storageName: files.storageName })
  let removedFiles = 0
  for (const { storageName } of expired) {
    if (await removeQuietly(path.join(dir, storageName))) removedFiles++
  }

  let names: string[]
  try {
    names = await fsp.readdir(dir)
  } catch {
    return { expired: expired.length, removedFiles }
  }
  const old: string[] = []
  for (const name of names) {
    const stat = await fsp.stat(path.join(dir, name)).catch(() => null)
    if (stat?.isFile() && now.getTime() - stat.mtimeMs > ORPHAN_GRACE_MS) old.push(name)
  }
  for (let i = 0; i < old.length; i += 1000) {
    const chunk = old.slice(i, i + 1000)
    const known = new Set(
      (
        await db
          .select({ storageName: files.storageName })
          .from(files)
          .where(inArray(files.storageName, chunk))
      ).map((r) => r.storageName),
    )
    for (const name of chunk) {
      if (!known.has(name) && (await removeQuietly(path.join(dir, name)))) removedFiles++
    }
  }
  return { expired: expired.length, removedFiles }
}

async function removeQuietly(file: string): Promise<boolean> {
  try {
    await fsp.rm(file)
    return true
  } catch {
    return false
  }
}
