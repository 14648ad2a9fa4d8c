import fs from 'node:fs'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import { queryRows } from '../../src/db/connection'
import { fileStoreFor, filesDir } from '../../src/modules/file/store'
import type { TestApp } from './app'

/**
 * What the file store of a test app's engine holds, looked at from outside the API: the files under
 * DATA_DIR/files with the embedded database, the pieces in `file_chunks` with PostgreSQL.
 */
export function storedFiles(t: TestApp) {
  const store = fileStoreFor(t.database, t.config.dataDir)
  const dir = filesDir(t.config.dataDir)
  const onDisk = t.database.kind !== 'postgres'
  return {
    store,
    async names(): Promise<string[]> {
      if (onDisk) return fs.existsSync(dir) ? fs.readdirSync(dir) : []
      const rows = await queryRows<{ name: string }>(
        t.db,
        sql`select storage_name as name from file_chunks where seq = 0`,
      )
      return rows.map((r) => r.name)
    },
    async has(name: string): Promise<boolean> {
      return (await this.names()).includes(name)
    },
    async bytes(name: string): Promise<Buffer | null> {
      const opened = await store.open(name)
      if (!opened) return null
      const pieces: Buffer[] = []
      for await (const piece of opened.stream) pieces.push(Buffer.from(piece as Buffer))
      return Buffer.concat(pieces)
    },
    async remove(name: string) {
      await store.remove([name])
    },
    /** Bytes under `name` with no row, written at `writtenAt` (an upload interrupted then). */
    async putLeftover(name: string, content: string, writtenAt: Date) {
      if (onDisk) {
        fs.mkdirSync(dir, { recursive: true })
        fs.writeFileSync(path.join(dir, name), content)
        fs.utimesSync(path.join(dir, name), writtenAt, writtenAt)
        return
      }
      await t.db.execute(sql`insert into file_chunks (storage_name, seq, data, created_at)
        values (${name}, 0, ${Buffer.from(content)}, ${writtenAt})`)
    },
  }
}
