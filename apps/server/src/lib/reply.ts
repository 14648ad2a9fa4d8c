import { MSG, type ApiEnvelope } from '@amg/contract'

/** The success envelope (SPEC.md §7): code 200 with the data. */
export function ok<T>(data: T, msg: string = MSG.success): ApiEnvelope<T> {
  return { code: 200, msg, data }
}

/** The success envelope without data, once the work is done: what the calls that only change answer. */
export async function done(work: Promise<unknown>, msg: string = MSG.success): Promise<ApiEnvelope<null>> {
  await work
  return ok(null, msg)
}

/** The content type of every JSON answer, as Fastify sets it: an answer sent as bytes says it itself. */
export const JSON_TYPE = 'application/json; charset=utf-8'
