import { MSG, type ApiEnvelope } from '@amg/contract'
import type { FastifyReply } from 'fastify'

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

/**
 * Sends answers a route keeps (the same object until what it shows changes: a list cache's page)
 * serialized once per kept object, by the route's own serializer, rather than on every read. One per
 * route: the serializer is the route's.
 */
export function keptAnswers() {
  const serialized = new WeakMap<object, string>()
  return (reply: FastifyReply, kept: object) => {
    let json = serialized.get(kept)
    if (json === undefined) {
      json = reply.serialize(ok(kept)) as string
      serialized.set(kept, json)
    }
    return reply.type(JSON_TYPE).send(json as never)
  }
}
