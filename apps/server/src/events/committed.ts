/**
 * Tells this instance's delivery worker that a write has just committed deliveries, so they are sent
 * at once rather than at the worker's next round (DESIGN.md §17: an event reaches a receiver within a
 * second, while the worker looks for due work only every few seconds). Other instances sharing the
 * database find the deliveries at their next round, as before; nothing here is needed for correctness.
 */
export class DeliveriesCommitted {
  private listener: (() => void) | null = null

  /** The worker of this app (modules/webhook/routes.ts). */
  listen(listener: () => void): void {
    this.listener = listener
  }

  notify(): void {
    this.listener?.()
  }
}
