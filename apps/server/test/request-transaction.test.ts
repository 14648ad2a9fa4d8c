import { describe, expect, it } from 'vitest'
import type { Db, Tx } from '../src/db/connection'
import { inRequestTransaction, requestScopedDb, runInTransaction } from '../src/db/request-transaction'

/** The request-scoped transaction, with stand-ins for the database: which one a module's `db` reaches. */
const fake = (name: string) => ({ name }) as unknown as Db & Tx & { name: string }
const root = fake('root')
const db = requestScopedDb(root) as Db & { name: string }
const tick = () => new Promise((resolve) => setTimeout(resolve, 5))

describe('the request-scoped transaction', () => {
  it('is what db reaches inside a write, across awaits, and nothing outside it', async () => {
    expect(db.name).toBe('root')
    expect(inRequestTransaction()).toBe(false)
    const seen = await runInTransaction(fake('tx1'), async () => {
      await tick()
      return [db.name, inRequestTransaction()]
    })
    expect(seen).toEqual(['tx1', true])
    expect(db.name).toBe('root')
    expect(inRequestTransaction()).toBe(false)
  })

  it('keeps each of two overlapping writes on its own transaction when the first finishes early', async () => {
    let releaseB!: () => void
    const bMayFinish = new Promise<void>((resolve) => (releaseB = resolve))
    const b = runInTransaction(fake('txB'), async () => {
      const before = db.name
      await bMayFinish
      await tick()
      return [before, db.name, inRequestTransaction()]
    })
    const a = await runInTransaction(fake('txA'), async () => {
      await tick()
      return db.name
    })
    expect(a).toBe('txA')
    // A is over (the storage was not switched off under B)
    releaseB()
    expect(await b).toEqual(['txB', 'txB', true])
    expect(db.name).toBe('root')
    expect(inRequestTransaction()).toBe(false)
  })

  it('is left behind by a write that failed, and is there again for the next one', async () => {
    await expect(
      runInTransaction(fake('txFail'), async () => {
        await tick()
        throw new Error('refused')
      }),
    ).rejects.toThrow('refused')
    expect(inRequestTransaction()).toBe(false)
    expect(await runInTransaction(fake('txNext'), async () => db.name)).toBe('txNext')
  })
})
