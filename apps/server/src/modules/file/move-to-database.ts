import fs from 'node:fs'
import fsp from 'node:fs/promises'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import { queryRows, type Db } from '../../db/connection'
import { inChunks } from '../../db/chunks'
import { textArray } from '../../db/sql-arrays'
import { filesDir } from './store'

export interface MoveResult {
  /** files whose bytes were copied into the database now */
  moved: number
  /** rows whose bytes are neither in the database nor on disk (they answer 404, as before) */
  missing: number
}

/**
 * A PostgreSQL deployment from before uploads lived in the database kept them under DATA_DIR/files
 * (DESIGN.md §19). At start, each file a row names and the database does not hold yet is copied in,
 * in one transaction per file, so a start that stops halfway leaves every file whole in one place or
 * the other; running it again (another instance, the next start) copies only what is still missing.
 * The originals are left where they are (docs/decisions.md, "Uploads in PostgreSQL").
 */
export async function moveFilesIntoDatabase(db: Db, dataDir: string): Promise<MoveResult> {
  const dir = filesDir(dataDir)
  let names: string[]
  try {
    names = (await fsp.readdir(dir)).filter((n) => !n.startsWith('.'))
  } catch {
    return { moved: 0, missing: 0 }
  }
  if (!names.length) return { moved: 0, missing: 0 }
  const wanted = await queryRows<{ storage_name: string }>(
    db,
    sql`select f.storage_name from files f
      where f.storage_name = any(${textArray(names)})
        and not exists (select 1 from file_chunks c where c.storage_name = f.storage_name)`,
  )
  let moved = 0
  let missing = 0
  for (const { storage_name: name } of wanted) {
    const file = path.join(dir, name)
    if (!fs.existsSync(file)) {
      missing++
      continue
    }
    await db.transaction(async (tx) => {
      let seq = 0
      const insert = (data: Buffer) =>
        tx.execute(sql`insert into file_chunks (storage_name, seq, data) values (${name}, ${seq++}, ${data})
          on conflict do nothing`)
      for await (const data of inChunks(fs.createReadStream(file))) await insert(data)
      if (seq === 0) await insert(Buffer.alloc(0))
    })
    moved++
  }
  return { moved, missing }
}
