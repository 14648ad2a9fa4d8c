import type { Tx } from '../db/connection'

/** What every step of the demo seeding shares: its transaction, its dice, its author and its log. */
export interface DemoRun {
  tx: Tx
  rnd: Random
  /** the administrator as the rows' creator and updater */
  ops: { createUserId: number | null; updateUserId: number | null }
  log: (line: string) => void
}

export const BATCH = 1000

export type Random = ReturnType<typeof random>

/** A small deterministic generator (mulberry32), so the demo company is the same on every run. */
export function random(seed: number) {
  let a = seed >>> 0
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const int = (n: number) => Math.floor(next() * n)
  const pick = <T>(list: readonly T[]): T => list[int(list.length)]
  return { next, int, pick }
}

export async function insertInBatches<T>(
  tx: Tx,
  rows: T[],
  insert: (tx: Tx, batch: T[]) => Promise<unknown>,
) {
  for (let i = 0; i < rows.length; i += BATCH) await insert(tx, rows.slice(i, i + BATCH))
}
