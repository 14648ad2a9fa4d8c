import type { EffectiveAccess } from '../../auth/access-load'
import type { SessionUser } from '../../cache/session-cache'

/** Whether two session users say the same: every field of one, flat values all (session-cache.ts). */
function sameUser(a: SessionUser, b: SessionUser): boolean {
  if (a === b) return true
  for (const key of Object.keys(a) as (keyof SessionUser)[]) if (a[key] !== b[key]) return false
  return Object.keys(a).length === Object.keys(b).length
}

/**
 * `GET /api/user/current`'s answer kept as it goes on the wire, one per user's access. The console
 * reads it on every page; serializing its list of permission codes (two-byte strings, for the names
 * in it) and sizing it in UTF-8 was most of the call's cost.
 *
 * Nothing is kept by a version number. The authorizer makes a new access whenever roles, links,
 * permissions or departments change or a time-bound link runs out (authorizer.ts): an answer is kept
 * with the access it was made from, in a weak map that lets it go with it, and served only while that
 * access is the one memory holds. The rest of the answer is the session's user as the session cache
 * holds it: served only to a session whose user says the same, field by field. One answer per access,
 * not per session, so memory grows with the users who read it, not with their sessions. An answer
 * naming departments (a scoped administrator's 管理范围) is read afresh each time, as the department
 * names it shows are not part of either.
 */
export class KeptCurrentAnswers {
  private readonly kept = new WeakMap<EffectiveAccess, { user: SessionUser; body: Buffer }>()

  /** The answer made for this user with this access, when there is one. */
  of(user: SessionUser, access: EffectiveAccess): Buffer | undefined {
    const kept = this.kept.get(access)
    return kept !== undefined && sameUser(kept.user, user) ? kept.body : undefined
  }

  /** The answer `json` as bytes, kept for this user and access when `keep` says it may be. */
  made(user: SessionUser, access: EffectiveAccess, json: string, keep: boolean): Buffer {
    const body = Buffer.from(json)
    if (keep) this.kept.set(access, { user, body })
    return body
  }
}
