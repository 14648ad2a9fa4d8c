import { describe, expect, it } from 'vitest'
import { BATCH_SUCCESS, runBatch } from './batch-runner'

const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('runBatch', () => {
  it('answers one result per row in the rows order: 成功 or the error message', async () => {
    const results = await runBatch([1, 2, 3, 4], async (n) => {
      await later(5 - n)
      if (n % 2 === 0) throw new Error(`用户 ${n} 失败`)
    })
    expect(results).toEqual([
      { item: 1, ok: true, message: BATCH_SUCCESS },
      { item: 2, ok: false, message: '用户 2 失败' },
      { item: 3, ok: true, message: BATCH_SUCCESS },
      { item: 4, ok: false, message: '用户 4 失败' },
    ])
  })

  it('runs at most `concurrency` calls at once, and every row once', async () => {
    let running = 0
    let most = 0
    const seen: number[] = []
    await runBatch(
      Array.from({ length: 10 }, (_, i) => i),
      async (n) => {
        running++
        most = Math.max(most, running)
        seen.push(n)
        await later(2)
        running--
      },
      { concurrency: 3 },
    )
    expect(most).toBe(3)
    expect(seen.sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
  })

  it('does not send a skipped row and reports why', async () => {
    const sent: string[] = []
    const results = await runBatch(['me', 'other'], async (who) => void sent.push(who), {
      skip: (who) => (who === 'me' ? '不能删除自己！' : null),
    })
    expect(sent).toEqual(['other'])
    expect(results.map((r) => [r.item, r.ok, r.message])).toEqual([
      ['me', false, '不能删除自己！'],
      ['other', true, BATCH_SUCCESS],
    ])
  })

  it('answers nothing for no rows', async () => {
    expect(await runBatch([], async () => undefined)).toEqual([])
  })
})
