/** The answer every call returns (SPEC.md §7): `{ code, msg, data }`; success is code 200. */
export interface ApiEnvelope<T = unknown> {
  code: number
  msg: string
  data: T
}

export const SUCCESS_CODE = 200
export const API_PREFIX = '/api'
export const AUTH_HEADER = 'x-auth-token'
export const TOKEN_STORAGE_KEY = 'Authorization'
export const REQUEST_TIMEOUT_MS = 5000
export const DEFAULT_PAGE_SIZE = 10
export const LOOKUP_PAGE_SIZE = 1000
/**
 * Up to this many matching rows a list counts its total exactly. Past it the logs (which grow without
 * bound) answer the planner's estimate with `totalIsEstimate`, and the console says only that there are
 * more than this many.
 */
export const EXACT_TOTAL_LIMIT = 10_000
