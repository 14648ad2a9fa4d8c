import v8 from 'node:v8'
import { expect, it } from 'vitest'
import { HeapBound } from '../src/lib/heap-bound'

const usedMb = () => v8.getHeapStatistics().used_heap_size / 1024 / 1024

/** A bulk job's garbage is collected between its batches once the heap has grown past the bound (lib/heap-bound.ts). */
it('collects the garbage a job left once the heap grew past the bound', () => {
  const bound = new HeapBound(16 * 1024 * 1024)
  let batch: { index: number; text: string }[] | null = Array.from({ length: 400_000 }, (_, index) => ({
    index,
    text: `用户${index}`,
  }))
  const grown = usedMb()
  expect(batch).toHaveLength(400_000)
  batch = null
  bound.collectIfGrown()
  // the 400,000 rows (tens of megabytes) are gone, not waiting for V8's next full collection
  expect(usedMb()).toBeLessThan(grown - 16)
})
