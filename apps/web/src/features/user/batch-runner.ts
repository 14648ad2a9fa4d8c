/**
 * The batch actions of the user list (decisions.md "Batch actions on users"): each selected row gets the
 * same single call the row's own action makes, a few at a time, so every row passes exactly the checks
 * of that call; the answer says, row by row, what happened.
 */

export interface BatchResult<T> {
  item: T
  ok: boolean
  /** 成功, or the server's message (or why the row was not sent) */
  message: string
}

export const BATCH_SUCCESS = '成功'
/** How many calls run at once: enough to be quick, few enough not to crowd the server. */
export const BATCH_CONCURRENCY = 3

const messageOf = (error: unknown) =>
  error instanceof Error && error.message ? error.message : String(error || '操作失败')

/**
 * Runs `action` for each item, at most `concurrency` at a time, and answers one result per item in
 * the items' order. `skip` names items not to send and why (they are reported as failed).
 */
export async function runBatch<T>(
  items: readonly T[],
  action: (item: T) => Promise<unknown>,
  opts: { concurrency?: number; skip?: (item: T) => string | null } = {},
): Promise<BatchResult<T>[]> {
  const results: BatchResult<T>[] = new Array(items.length)
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const index = next++
      const item = items[index]
      const skipped = opts.skip?.(item) ?? null
      if (skipped !== null) {
        results[index] = { item, ok: false, message: skipped }
        continue
      }
      try {
        await action(item)
        results[index] = { item, ok: true, message: BATCH_SUCCESS }
      } catch (error) {
        results[index] = { item, ok: false, message: messageOf(error) }
      }
    }
  }
  const workers = Math.max(1, Math.min(opts.concurrency ?? BATCH_CONCURRENCY, items.length))
  await Promise.all(Array.from({ length: workers }, worker))
  return results
}
