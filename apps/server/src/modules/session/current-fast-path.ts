import type { IncomingHttpHeaders } from 'node:http'
import type { FastifyBaseLogger } from 'fastify'
import { API_PREFIX, sessionApi } from '@amg/contract'
import type { Authorizer } from '../../auth/authorizer'
import type { HeldCaller } from '../../auth/hook'
import { JSON_TYPE } from '../../lib/reply'
import { API_SECURITY_HEADERS } from '../../lib/security-headers'
import { HeldRead, type KeptAnswer } from '../authz/held-read'
import type { KeptCurrentAnswers } from './current-answer'

/** `GET /api/user/current`'s URL: with a query it goes to Fastify. */
export const CURRENT_URL = `${API_PREFIX}${sessionApi.current.route.path}`

/** How many of these answers this process gave here (tests tell the two paths apart by it). */
export const currentFastPathCount = { answered: 0 }

/** The route's headers, in its order: the API's security headers, then JSON. */
const HEADERS = [...Object.entries(API_SECURITY_HEADERS).flat(), 'content-type', JSON_TYPE]

/**
 * `GET /api/user/current` answered before Fastify (authz/held-read.ts) when the route has kept this
 * caller's answer for the access memory holds (current-answer.ts); a first read, a changed access and
 * a restricted session go to the route. No closure per request (see forward-fast-path.ts).
 */
export class CurrentFastPath extends HeldRead {
  constructor(
    private readonly answers: KeptCurrentAnswers,
    private readonly authz: Pick<Authorizer, 'accessFromMemory'>,
    heldCaller: (headers: IncomingHttpHeaders) => HeldCaller | undefined,
    log: FastifyBaseLogger,
  ) {
    super(heldCaller, log, currentFastPathCount)
  }

  protected keptFor({ user }: HeldCaller): KeptAnswer | undefined {
    const access = this.authz.accessFromMemory(user.id)
    const body = access === undefined ? undefined : this.answers.of(user, access)
    return body === undefined ? undefined : [HEADERS, body]
  }
}
