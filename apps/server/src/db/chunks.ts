import { Readable } from 'node:stream'

/**
 * Bytes kept in the database as rows of at most CHUNK_BYTES each (DESIGN.md §19: uploads and import
 * results on PostgreSQL). Written piece by piece as they arrive and read back one piece per query,
 * so neither side holds a whole file in memory and no connection is held between pieces.
 */
export const CHUNK_BYTES = 256 * 1024

/** The bytes of `source` regrouped into pieces of exactly CHUNK_BYTES (the last one shorter, none empty). */
export async function* inChunks(source: AsyncIterable<Buffer | Uint8Array | string>): AsyncGenerator<Buffer> {
  let held: Buffer[] = []
  let heldBytes = 0
  for await (const piece of source) {
    let bytes = typeof piece === 'string' ? Buffer.from(piece) : Buffer.from(piece)
    while (heldBytes + bytes.length >= CHUNK_BYTES) {
      const take = CHUNK_BYTES - heldBytes
      held.push(bytes.subarray(0, take))
      yield Buffer.concat(held)
      bytes = bytes.subarray(take)
      held = []
      heldBytes = 0
    }
    if (bytes.length) {
      held.push(bytes)
      heldBytes += bytes.length
    }
  }
  if (heldBytes) yield Buffer.concat(held)
}

/**
 * A stream of the pieces `readPiece` answers for seq 0, 1, 2 … until it answers none. Each piece is
 * read when the client has taken the one before (backpressure), by a query of its own.
 */
export function chunkStream(readPiece: (seq: number) => Promise<Buffer | null>): Readable {
  async function* pieces() {
    for (let seq = 0; ; seq++) {
      const piece = await readPiece(seq)
      if (!piece) return
      yield piece
    }
  }
  return Readable.from(pieces(), { objectMode: false })
}
