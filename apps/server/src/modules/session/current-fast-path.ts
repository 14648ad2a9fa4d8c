import { API_PREFIX, sessionApi } from '@amg/contract'
import type { Authorizer } from '../../auth/authorizer'
import { JSON_ANSWER_HEADERS } from '../../lib/security-headers'
import type { KeptFor } from '../authz/held-read'
import type { KeptCurrentAnswers } from './current-answer'

/** `GET /api/user/current`'s URL: with a query it goes to Fastify. */
export const CURRENT_URL = `${API_PREFIX}${sessionApi.current.route.path}`

/** How many of these answers this process gave before Fastify (tests tell the two paths apart by it). */
export const currentFastPathCount = { answered: 0 }

/**
 * `GET /api/user/current` as it is sent before Fastify (authz/held-read.ts): when the route has kept
 * this caller's answer for the access memory holds (current-answer.ts); a first read, a changed access
 * and a restricted session go to the route.
 */
export const keptCurrent =
  (answers: KeptCurrentAnswers, authz: Pick<Authorizer, 'accessFromMemory'>): KeptFor =>
  ({ user }) => {
    const access = authz.accessFromMemory(user.id)
    const body = access === undefined ? undefined : answers.of(user, access)
    return body === undefined ? undefined : [JSON_ANSWER_HEADERS, body]
  }
