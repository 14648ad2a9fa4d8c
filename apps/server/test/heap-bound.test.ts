import v8 from 'node:v8'
import { expect, it } from 'vitest'
import { collectGarbage, HeapBound } from '../src/lib/heap-bound'

const usedMb = () => v8.getHeapStatistics().used_heap_size / 1024 / 1024

/**
 * One batch of a job: 400,000 rows (tens of megabytes) made and dropped; answers the heap while they
 * were live. In a function of its own, so that nothing in the test's frame still points at them.
 */
function runBatch(): number {
  const batch = Array.from({ length: 400_000 }, (_, index) => ({ index, text: `用户${index}` }))
  expect(batch).toHaveLength(400_000)
  return usedMb()
}

/** A bulk job's garbage is collected between its batches once the heap has grown past the bound (lib/heap-bound.ts). */
it('collects the garbage a job left once the heap grew past the bound', () => {
  // from a heap holding only what is live: the garbage of loading the test's modules, collected by V8
  // while the rows are made, would otherwise count against the growth the bound measures
  collectGarbage()
  const bound = new HeapBound(16 * 1024 * 1024)
  const grown = runBatch()
  bound.collectIfGrown()
  // the rows are gone, not waiting for V8's next full collection
  expect(usedMb()).toBeLessThan(grown - 16)
})
