/** One data row: its number in the spreadsheet (blank rows counted) and its cells as text. */
export interface SheetRow {
  rowNumber: number
  cells: string[]
}

const CHUNK_BYTES = 1024 * 1024

/**
 * The rows of an upload, kept as UTF-8 in buffers outside the JavaScript heap until a batch reads
 * them. An import keeps its rows for the whole job (and an hour after, for its result workbook): as
 * 100,000 objects of strings they were tens of megabytes of live heap, and V8 lets the heap grow to a
 * multiple of what is live before it collects, so the server grew by hundreds of megabytes during a
 * large import. Here a row costs its bytes, and the heap only holds the batch being run.
 */
export class SheetRows {
  private readonly chunks: Buffer[] = []
  private used = 0
  /** per row: its chunk, its offset in the chunk, its length in bytes */
  private where = new Uint32Array(3 * 1024)
  private count = 0

  get length(): number {
    return this.count
  }

  push(row: SheetRow): void {
    const bytes = Buffer.from(JSON.stringify([row.rowNumber, ...row.cells]))
    const last = this.chunks.at(-1)
    if (!last || this.used + bytes.length > last.length) {
      this.chunks.push(Buffer.allocUnsafe(Math.max(CHUNK_BYTES, bytes.length)))
      this.used = 0
    }
    bytes.copy(this.chunks.at(-1)!, this.used)
    if (3 * (this.count + 1) > this.where.length) {
      const grown = new Uint32Array(this.where.length * 2)
      grown.set(this.where)
      this.where = grown
    }
    this.where.set([this.chunks.length - 1, this.used, bytes.length], 3 * this.count)
    this.used += bytes.length
    this.count++
  }

  /** Row `index` (0-based, in file order). */
  at(index: number): SheetRow {
    if (!Number.isInteger(index) || index < 0 || index >= this.count)
      throw new RangeError(`no row ${index} of ${this.count}`)
    const chunk = this.chunks[this.where[3 * index]]
    const start = this.where[3 * index + 1]
    const [rowNumber, ...cells] = JSON.parse(
      chunk.toString('utf8', start, start + this.where[3 * index + 2]),
    ) as [number, ...string[]]
    return { rowNumber, cells }
  }

  *[Symbol.iterator](): Generator<SheetRow> {
    for (let i = 0; i < this.count; i++) yield this.at(i)
  }
}
