import { AMS_SERVICE_KEY, API_PREFIX } from '@amg/contract'
import type { Db, DbOrTx } from '../db/connection'
import { accessAllows, Authorizer, type EffectiveAccess } from '../auth/authorizer'
import { scopeOfCall } from '../auth/data-scope'
import { PowerGuard, type Stake } from '../auth/power'
import { requireWritableUsers } from '../auth/user-scope'
import { AppError } from '../lib/errors'

/** A write the demo history invents: the call, the user it is about and what else it gives. */
export interface InventedCall {
  method: string
  /** as the log stores it, under /api */
  path: string
  targetUserId: number
  /** what the call moves besides the user (a role linked) */
  stake?: Omit<Stake, 'userIds'>
}

/**
 * Whether a demo person could have made a call, as the server decides it today (DESIGN.md §6, §6a,
 * §13): the authorizer's answer for the call, the target user within the call's data scope, and the
 * power check of what it moves. The demo history gives each invented change to someone who passes
 * all three, so no read-only account (只读审计) is ever seen changing anything.
 */
export class DemoOperators {
  private readonly authz: Authorizer
  private readonly power: PowerGuard
  private readonly access = new Map<number, EffectiveAccess>()

  constructor(private readonly tx: DbOrTx) {
    // resolved inside the seed's transaction, never kept: nothing here hears of changes
    this.authz = new Authorizer(tx as Db, {
      notify: async () => {},
      onNotify: () => {},
      hearsEveryChange: () => false,
    })
    this.power = new PowerGuard(this.authz)
  }

  private async accessOf(userId: number): Promise<EffectiveAccess> {
    let access = this.access.get(userId)
    if (!access) {
      access = await this.authz.resolve(userId, this.tx)
      this.access.set(userId, access)
    }
    return access
  }

  /** Whether the authorizer lets the user make the call at all. */
  async mayCall(userId: number, method: string, path: string): Promise<boolean> {
    return accessAllows(await this.accessOf(userId), AMS_SERVICE_KEY, method, apiPath(path))
  }

  /** Whether the user may make the call on its target: the call, the reach and the power. */
  async mayMake(userId: number, call: InventedCall): Promise<boolean> {
    const path = apiPath(call.path)
    const access = await this.accessOf(userId)
    if (!accessAllows(access, AMS_SERVICE_KEY, call.method, path)) return false
    const caller = { id: userId, scope: scopeOfCall(access, AMS_SERVICE_KEY, call.method, path) }
    try {
      await requireWritableUsers(this.tx, caller, [call.targetUserId])
      await this.power.require(this.tx, userId, { ...call.stake, userIds: [call.targetUserId] }, access)
      return true
    } catch (err) {
      if (err instanceof AppError) return false
      throw err
    }
  }
}

/** The path the authorizer matches: below /api. */
const apiPath = (path: string) => (path.startsWith(API_PREFIX) ? path.slice(API_PREFIX.length) : path)
