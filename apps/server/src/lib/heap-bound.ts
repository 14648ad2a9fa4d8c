import v8 from 'node:v8'
import { runInNewContext } from 'node:vm'

/**
 * A long bulk job's garbage, collected as it goes (DESIGN.md §12: an import of 100,000 users grows
 * the server by at most 300 MB). V8 lets the heap grow to up to four times what was live at its last
 * full collection before it collects again, and a busy job gives it no idle moment to do so sooner:
 * a 100,000-row import ran start to end between two collections and left the process several
 * hundred megabytes larger. Between two batches of a job, once the heap has grown by more than
 * `GROWTH_BYTES` since the last collection, this collects it (a pause of tens of milliseconds, the
 * size of V8's own full collections, every few seconds while a job runs; never outside one).
 */
const GROWTH_BYTES = 96 * 1024 * 1024

/**
 * V8's collector as a function. Node hands it out only to a process started with `--expose-gc`;
 * a context created while the flag is set gets it too, and the flag is put back at once. Made the
 * first time a job needs it, not when the server starts: most processes never run a large job.
 */
let collector: (() => void) | undefined
export function collectGarbage(): void {
  collector ??=
    (globalThis as { gc?: () => void }).gc ??
    (() => {
      v8.setFlagsFromString('--expose-gc')
      try {
        return runInNewContext('gc') as () => void
      } finally {
        v8.setFlagsFromString('--no-expose-gc')
      }
    })()
  collector()
}

const usedHeap = () => v8.getHeapStatistics().used_heap_size

export class HeapBound {
  private floor = usedHeap()

  constructor(private readonly growthBytes = GROWTH_BYTES) {}

  /** Between two pieces of a job: collects if the heap grew by more than the bound since last time. */
  collectIfGrown(): void {
    if (usedHeap() - this.floor <= this.growthBytes) return
    collectGarbage()
    this.floor = usedHeap()
  }
}
