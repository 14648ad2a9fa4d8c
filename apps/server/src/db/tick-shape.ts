import { executionAsyncResource } from 'node:async_hooks'

/** The tick object held for the life of the process (see `keepTickShape`). */
let held: object | undefined

/**
 * Keeps one of Node's `process.nextTick` queue entries alive for the life of the process, so that V8
 * keeps the hidden class (and the chain of classes behind it) that every entry is built with.
 *
 * Why: V8 holds an object literal's hidden-class transitions weakly. The embedded database's start
 * (loading its extension) runs full collections while no tick entry is alive, and each one drops
 * those classes; the next entries are built on new ones, so the property stores in `nextTick` see a
 * new class each time. When `nextTick` is then optimized, each of its four stores is a call into the
 * runtime: measured, 300 ns per tick instead of 55, and several ticks per HTTP request (a forward-auth
 * answer took 25 µs of server CPU instead of 21). With one entry held, the classes survive every
 * collection and `nextTick` stays the fast version. It costs one small object.
 *
 * Called as the database opens (connection.ts), before the embedded one starts.
 */
export async function keepTickShape(): Promise<void> {
  if (held) return
  held = await new Promise<object>((resolve) => process.nextTick(() => resolve(executionAsyncResource())))
}
