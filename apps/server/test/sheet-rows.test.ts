import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { SheetRows, type SheetRow } from '../src/lib/sheet-rows'

/**
 * An import's rows are held as bytes outside the heap (lib/sheet-rows.ts): every row must come back
 * exactly as it was read, in order, whatever its text and however the rows fall across buffers.
 */
describe('the rows of an upload', () => {
  const row = fc.record({
    rowNumber: fc.integer({ min: 2, max: 1_048_576 }),
    cells: fc.array(fc.string({ unit: 'binary', maxLength: 40 }), { maxLength: 12 }),
  })

  it('gives back every row as it was put in, by index and in order', () => {
    fc.assert(
      fc.property(fc.array(row, { maxLength: 200 }), (rows) => {
        const store = new SheetRows()
        for (const r of rows) store.push(r)
        expect(store.length).toBe(rows.length)
        expect([...store]).toEqual(rows)
        rows.forEach((r, i) => expect(store.at(i)).toEqual(r))
      }),
    )
  })

  it('keeps rows that cross a buffer boundary and a row larger than a buffer whole', () => {
    const rows: SheetRow[] = []
    // about 3 MB of Chinese text in rows of about 300 bytes, then one row of 2 MB
    for (let i = 0; i < 10_000; i++)
      rows.push({ rowNumber: i + 2, cells: [`user_${i}`, `研发中心第${i}组`.repeat(8), '', '"\\\n\u0000😀'] })
    rows.push({ rowNumber: 10_002, cells: ['长'.repeat(700_000)] })
    rows.push({ rowNumber: 10_003, cells: ['after'] })
    const store = new SheetRows()
    for (const r of rows) store.push(r)
    expect(store.length).toBe(rows.length)
    for (const i of [0, 1, 3000, 3001, 3002, 6000, 9999, 10_000, 10_001]) expect(store.at(i)).toEqual(rows[i])
    expect([...store]).toEqual(rows)
  })

  it('refuses an index it does not hold', () => {
    const store = new SheetRows()
    store.push({ rowNumber: 2, cells: ['a'] })
    for (const index of [-1, 1, 0.5, Number.NaN]) expect(() => store.at(index)).toThrow(RangeError)
  })
})
