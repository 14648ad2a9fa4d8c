import { vi } from 'vitest'

/**
 * Stand-ins for the console's HTTP calls (lib/http), for tests that answer the calls themselves.
 * A test file hands this module to vi.mock as lib/http and imports `api` to answer and inspect calls:
 *
 *   vi.mock('../src/lib/http', () => import('./mock-http'))
 *   import { api, resetApi } from './mock-http'
 *
 * Both see the same module, so the functions the screens call are the ones the test holds.
 */
export const get = vi.fn()
export const post = vi.fn()
export const put = vi.fn()
export const patch = vi.fn()
export const del = vi.fn()
export const call = vi.fn()
export const download = vi.fn()

/** Every call stand-in, by the name lib/http exports it under. */
export const api = { get, post, put, patch, del, call, download }

/** Forgets every stand-in's calls and answers (a test's beforeEach sets the answers it needs). */
export function resetApi() {
  Object.values(api).forEach((fn) => fn.mockReset())
}
