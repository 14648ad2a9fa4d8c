import fs from 'node:fs'
import fsp from 'node:fs/promises'
import path from 'node:path'
import type { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { sql } from 'drizzle-orm'
import type { Database, Db } from '../../db/connection'
import { queryRows } from '../../db/connection'
import { chunkStream, inChunks } from '../../db/chunks'
import { textArray } from '../../db/sql-arrays'
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../../db/private-files'

/** Bytes without a `files` row this long after they were written are left over from an interrupted upload. */
export const ORPHAN_GRACE_MS = 60 * 60 * 1000

/**
 * Where uploaded files' bytes live, under the random storage name their `files` row keeps (DESIGN.md
 * §19): on disk under DATA_DIR/files with the embedded database (one process), in the database with
 * PostgreSQL, so that every instance serves every file.
 */
export interface FileStore {
  /** Writes `source` under `name` and answers its size; on failure nothing of it is left. */
  write(name: string, source: Readable): Promise<number>
  /** The bytes kept under `name`, or null when there are none. */
  open(name: string): Promise<{ size: number; stream: Readable } | null>
  /** Removes what is kept under these names; answers how many were there. */
  remove(names: readonly string[]): Promise<number>
  /** Removes bytes older than ORPHAN_GRACE_MS (at `now`) that no `files` row names; answers how many. */
  removeLeftovers(now: Date): Promise<number>
}

export const filesDir = (dataDir: string) => path.join(dataDir, 'files')

/** The store of this deployment's engine. */
export const fileStoreFor = (database: Database, dataDir: string): FileStore =>
  database.kind === 'postgres' ? new DatabaseFileStore(database.db) : new DiskFileStore(database.db, dataDir)

/** DATA_DIR/files, one file per upload, readable by the server's user only. */
export class DiskFileStore implements FileStore {
  private readonly dir: string
  constructor(
    private readonly db: Db,
    dataDir: string,
  ) {
    this.dir = filesDir(dataDir)
  }

  async write(name: string, source: Readable) {
    await fsp.mkdir(this.dir, { recursive: true, mode: PRIVATE_DIR_MODE })
    const target = path.join(this.dir, name)
    try {
      await pipeline(source, fs.createWriteStream(target, { flags: 'wx', mode: PRIVATE_FILE_MODE }))
      return (await fsp.stat(target)).size
    } catch (err) {
      await fsp.rm(target, { force: true })
      throw err
    }
  }

  async open(name: string) {
    let handle: fsp.FileHandle
    try {
      handle = await fsp.open(path.join(this.dir, name), 'r')
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null
      throw err
    }
    const { size } = await handle.stat()
    return { size, stream: handle.createReadStream() }
  }

  async remove(names: readonly string[]) {
    let removed = 0
    for (const name of names) if (await removeQuietly(path.join(this.dir, name))) removed++
    return removed
  }

  async removeLeftovers(now: Date) {
    let names: string[]
    try {
      names = await fsp.readdir(this.dir)
    } catch {
      return 0
    }
    const old: string[] = []
    for (const name of names) {
      const stat = await fsp.stat(path.join(this.dir, name)).catch(() => null)
      if (stat?.isFile() && now.getTime() - stat.mtimeMs > ORPHAN_GRACE_MS) old.push(name)
    }
    let removed = 0
    for (let i = 0; i < old.length; i += 1000) {
      const chunk = old.slice(i, i + 1000)
      const known = new Set(
        (
          await queryRows<{ storage_name: string }>(
            this.db,
            sql`select storage_name from files where storage_name = any(${textArray(chunk)})`,
          )
        ).map((r) => r.storage_name),
      )
      for (const name of chunk)
        if (!known.has(name) && (await removeQuietly(path.join(this.dir, name)))) removed++
    }
    return removed
  }
}

/** `file_chunks` (migration 0028): pieces of 256 KiB, written as they arrive and streamed out one by one. */
export class DatabaseFileStore implements FileStore {
  constructor(private readonly db: Db) {}

  async write(name: string, source: Readable) {
    let size = 0
    let seq = 0
    try {
      for await (const data of inChunks(source)) {
        await this.db.execute(
          sql`insert into file_chunks (storage_name, seq, data) values (${name}, ${seq++}, ${data})`,
        )
        size += data.length
      }
      // an empty file is one empty piece, so that it exists
      if (seq === 0)
        await this.db.execute(
          sql`insert into file_chunks (storage_name, seq, data) values (${name}, 0, ${Buffer.alloc(0)})`,
        )
      return size
    } catch (err) {
      await this.remove([name]).catch(() => {})
      throw err
    }
  }

  async open(name: string) {
    const [first] = await queryRows<{ size: string | number }>(
      this.db,
      sql`select sum(octet_length(data)) as size from file_chunks where storage_name = ${name} having count(*) > 0`,
    )
    if (!first) return null
    const stream = chunkStream(async (seq) => {
      const [piece] = await queryRows<{ data: Buffer }>(
        this.db,
        sql`select data from file_chunks where storage_name = ${name} and seq = ${seq}`,
      )
      return piece ? Buffer.from(piece.data) : null
    })
    return { size: Number(first.size), stream }
  }

  async remove(names: readonly string[]) {
    if (!names.length) return 0
    const [gone] = await queryRows<{ n: number }>(
      this.db,
      sql`with gone as (delete from file_chunks where storage_name = any(${textArray(names)}) returning seq)
        select count(*)::int as n from gone where seq = 0`,
    )
    return gone.n
  }

  async removeLeftovers(now: Date) {
    const cutoff = new Date(now.getTime() - ORPHAN_GRACE_MS)
    const old = await queryRows<{ storage_name: string }>(
      this.db,
      sql`select c.storage_name from file_chunks c
        where c.seq = 0 and c.created_at < ${cutoff}
          and not exists (select 1 from files f where f.storage_name = c.storage_name)`,
    )
    return this.remove(old.map((r) => r.storage_name))
  }
}

async function removeQuietly(file: string): Promise<boolean> {
  try {
    await fsp.rm(file)
    return true
  } catch {
    return false
  }
}
