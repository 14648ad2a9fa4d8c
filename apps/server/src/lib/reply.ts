import { MSG, type ApiEnvelope } from '@amg/contract'

/** The success envelope (SPEC.md §7): code 200 with the data. */
export function ok<T>(data: T, msg: string = MSG.success): ApiEnvelope<T> {
  return { code: 200, msg, data }
}
