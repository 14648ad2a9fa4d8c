import { sql } from 'drizzle-orm'
import { beyondPowerMessage, MSG, normalizeName, type UserInsertBody } from '@amg/contract'
import { queryRows, type Tx } from '../../db/connection'
import { arrayParam, intArray, textArray, type ArrayElementType } from '../../db/sql-arrays'
import { users } from '../../db/schema'
import { rolesCarried, type PowerGuard, type Stake } from '../../auth/power'
import { requirePositionsInScope, type Caller } from '../../auth/user-scope'
import { AppError, conflict, forbidden } from '../../lib/errors'
import { isDatabaseUnavailable } from '../../db/unavailable'
import type { SheetRow } from '../../lib/workbook'
import { requireExisting } from '../links/existing'
import { newUserValues, USER_MSG } from '../user'
import type { BatchHandler, RowResult } from './jobs'
import { requireSuperAdminAllowed } from './super-admin-rows'
import {
  importUserRow,
  newUserBody,
  readRow,
  type JobPasswords,
  type UserImportContext,
  type UserRowIntent,
} from './user-rows'
import type { RowLinkTarget } from './row-links'

/**
 * A batch of a user import, set-wise (DESIGN.md §15): 100,000 rows must go in within a minute, so a
 * batch is read, checked and written with a handful of statements, not dozens per row. The rules are
 * the single calls' own and are not restated here: each new row's body passes `newUserBody` (schema,
 * user checks, password policy); what the database decides — the position, role and group ids exist,
 * positions in scope, the power check (§6a) and reach (§13) of each link, in the order POST
 * /user/insert and the link calls run them — is decided once per distinct combination of positions,
 * roles and groups (`NewUserChecks`), through the same functions the calls use. Then the users go in
 * with one multi-row insert and their links with one insert per link table; the audit triggers stage
 * a statement's rows at once, so the batch's log row and events hold them as before.
 *
 * Rows of existing users (upsert) take the row-by-row path, each in its own savepoint, as does every
 * row of a batch that names the caller (a change to oneself may change one's power, which the checks
 * of the rows after it must see). A database error in the set-wise insert (a name taken by a
 * concurrent writer) sends that batch's new rows down the row-by-row path, so each fails alone.
 */
export function userBatches(
  ctx: UserImportContext,
  passwords: JobPasswords,
  checks: NewUserChecks,
): BatchHandler {
  const byRow = (tx: Tx, row: SheetRow) => importUserRow(tx, ctx, passwords, row.cells)
  return async (tx, rows, inSavepoint) => {
    const results: (RowResult | undefined)[] = new Array(rows.length)
    const intents: (UserRowIntent | undefined)[] = rows.map((row, i) => {
      try {
        return readRow(row.cells, ctx.names, ctx.timeZone)
      } catch (err) {
        results[i] = refusal(err)
        return undefined
      }
    })
    const existing = await existingUsers(
      tx,
      intents.flatMap((intent) => (intent ? [normalizeName(intent.nickName)] : [])),
    )
    const upserts = ctx.mode === 'upsert'
    if (upserts && [...existing.values()].includes(ctx.caller.id)) {
      // the caller's own row may change the caller's power: every row as the single calls take it
      const all: RowResult[] = []
      for (const row of rows) all.push(await inSavepoint(byRow, row))
      return all
    }

    const fresh: { i: number; body: UserInsertBody; intent: UserRowIntent }[] = []
    for (let i = 0; i < rows.length; i++) {
      const intent = intents[i]
      if (!intent) continue
      if (upserts && existing.has(normalizeName(intent.nickName))) {
        results[i] = await inSavepoint(byRow, rows[i])
        continue
      }
      try {
        const body = newUserBody(ctx, intent)
        if (!ctx.caller.scope.all && intent.positionIds.length === 0)
          throw forbidden(MSG.positionRequiredInScope)
        if (existing.has(body.nickName.trim()) || existing.has(normalizeName(intent.nickName)))
          throw conflict(USER_MSG.nickNameTaken)
        const refused = await checks.refusal(tx, intent)
        if (refused !== null) throw new AppError(403, refused)
        fresh.push({ i, body, intent })
      } catch (err) {
        results[i] = refusal(err)
      }
    }

    if (fresh.length) {
      const written = await insertAll(tx, ctx, passwords, fresh).then(
        () => true,
        (err) => {
          // a lost connection ends the batch (jobs.ts); anything else is a row's to tell
          if (isDatabaseUnavailable(err)) throw err
          return false
        },
      )
      for (const { i } of fresh) results[i] = written ? { ok: 'inserted' } : await inSavepoint(byRow, rows[i])
    }
    return results as RowResult[]
  }
}

/** An AppError's message as the row's reason; anything else is not a refusal and ends the batch. */
function refusal(err: unknown): RowResult {
  if (err instanceof AppError) return { failed: err.message }
  throw err
}

/** The users of these names (as stored), by name. */
async function existingUsers(tx: Tx, names: readonly string[]): Promise<Map<string, number>> {
  if (!names.length) return new Map()
  // each name looked up on its own in the unique index, from one array parameter: as an IN list of
  // 1,000 names PostgreSQL, once it has statistics, takes the trigram index (users_nick_name_trgm_idx),
  // where names alike share most of their trigrams, and spends seconds a batch; as a plain join it
  // reads the whole table a batch (PGlite has no statistics), growing with every batch
  const query = sql`select u.id, u.nick_name from unnest(${textArray(new Set(names))}) as n(name)
    cross join lateral (select id, nick_name from users where nick_name = n.name limit 1) u`
  const rows = await queryRows<{ id: number; nick_name: string }>(tx, query)
  return new Map(rows.map((r) => [r.nick_name, Number(r.id)]))
}

/** The new users and their links: one statement per table, in a savepoint (a clash rolls back only these). */
async function insertAll(
  tx: Tx,
  ctx: UserImportContext,
  passwords: JobPasswords,
  fresh: readonly { body: UserInsertBody; intent: UserRowIntent }[],
): Promise<void> {
  const values: (typeof users.$inferInsert)[] = []
  for (const { body, intent } of fresh)
    values.push(
      newUserValues(body.nickName.trim(), await passwords.prepare(intent.password), ctx.caller.id, body),
    )
  await tx.transaction(async (sp) => {
    // one array per column (unnest): a statement of nine parameters however many rows, which both
    // ends parse and plan far faster than a VALUES list of thousands
    const column = <K extends keyof (typeof values)[number]>(key: K, type: ArrayElementType) =>
      arrayParam(
        values.map((v) => v[key] as string | number | null),
        type,
      )
    const rowsIn = await queryRows<{ id: number; nick_name: string }>(
      sp,
      sql`insert into users (nick_name, real_name, mobile, status, password_hash, password_is_initial,
          must_change_password, create_user_id, update_user_id)
        select * from unnest(${column('nickName', 'text')}, ${column('realName', 'text')},
          ${column('mobile', 'text')}, ${column('status', 'smallint')}, ${column('passwordHash', 'text')},
          ${column('passwordIsInitial', 'smallint')}, ${column('mustChangePassword', 'smallint')},
          ${column('createUserId', 'int')}, ${column('updateUserId', 'int')})
        returning id, nick_name`,
    )
    const idOf = new Map(rowsIn.map((r) => [r.nick_name, Number(r.id)]))
    const link = async (
      table: string,
      target: string,
      kind: RowLinkTarget,
      targetsOf: (intent: UserRowIntent) => number[],
    ) => {
      const userIds: number[] = []
      const targetIds: number[] = []
      // each link's expiry (DESIGN.md §20), null for a permanent one
      const expiries: (string | null)[] = []
      fresh.forEach(({ intent }, k) => {
        for (const id of targetsOf(intent)) {
          userIds.push(idOf.get(values[k].nickName)!)
          targetIds.push(id)
          expiries.push(intent.expiries[kind].get(id)?.at.toISOString() ?? null)
        }
      })
      if (userIds.length)
        await sp.execute(
          sql`insert into ${sql.identifier(table)} (user_id, ${sql.identifier(target)}, expires_at)
            select * from unnest(${intArray(userIds)}, ${intArray(targetIds)}, ${arrayParam(expiries, 'timestamptz')})
            on conflict do nothing`,
        )
    }
    await link('position_users', 'position_id', 'position', (intent) => intent.positionIds)
    await link('user_roles', 'role_id', 'role', (intent) => intent.roleIds)
    await link('user_group_users', 'group_id', 'group', (intent) => intent.groupIds)
  })
}

/**
 * What the database decides about a new user's positions, roles and groups, in the order the single
 * calls decide it (POST /user/insert with `positionIds`, then the role link, then the group link), the
 * first refusal kept: kept per job for each distinct combination, since the caller's power and reach
 * do not change while the job runs (a batch naming the caller goes row by row, uncached).
 *
 * A user not yet written is described by what they will hold: their power at the role link is the
 * roles of their positions (the stake `userIds` resolves to), at the group link those and the roles
 * linked; their departments are those of their enabled positions.
 */
export class NewUserChecks {
  /** per combination: the first refusal's message, or null when every check passes */
  private readonly decided = new Map<string, string | null>()

  constructor(
    private readonly power: PowerGuard,
    private readonly caller: Caller,
    private readonly allowSuperAdmin: boolean,
  ) {}

  async refusal(
    tx: Tx,
    row: Pick<UserRowIntent, 'positionIds' | 'roleIds' | 'groupIds'>,
  ): Promise<string | null> {
    const key = JSON.stringify([row.positionIds, row.roleIds, row.groupIds])
    let known = this.decided.get(key)
    if (known === undefined) {
      known = await this.decide(tx, row).then(
        () => null,
        (err: unknown) => {
          if (err instanceof AppError) return err.message
          throw err
        },
      )
      this.decided.set(key, known)
    }
    return known
  }

  private async decide(tx: Tx, row: Pick<UserRowIntent, 'positionIds' | 'roleIds' | 'groupIds'>) {
    const { positionIds, roleIds, groupIds } = row
    await requireSuperAdminAllowed(tx, this.allowSuperAdmin, row)
    const callerId = this.caller.id
    const before = await this.power.callerAccess(tx, callerId)
    const powerCovers = async (stake: Stake) => {
      const missing = await this.power.missing(tx, callerId, stake)
      if (missing.length) throw forbidden(beyondPowerMessage(missing))
    }
    const orgRows = positionIds.length
      ? await queryRows<{ org_id: number }>(
          tx,
          sql`select org_id from positions where status = 1 and id = any(${intArray(positionIds)})`,
        )
      : []
    const targets = [orgRows.map((r) => Number(r.org_id))]
    const reachCovers = async (given: readonly number[]) => {
      const lacking = await this.power.grantsLacking(tx, before, [{ roleIds: given, targets }])
      if (lacking.length) throw forbidden(beyondPowerMessage(lacking))
    }
    const carried = async (table: 'position_roles' | 'user_group_roles', ids: number[]) => [
      ...new Set([...(await rolesCarried(tx, table, ids)).values()].flat()),
    ]
    if (positionIds.length) {
      await requireExisting(tx, 'position', positionIds, true)
      await requirePositionsInScope(tx, this.caller, positionIds)
      await powerCovers({ positionIds })
      await reachCovers(await carried('position_roles', positionIds))
    }
    if (roleIds.length) {
      await requireExisting(tx, 'role', roleIds, true)
      await powerCovers({ positionIds, roleIds })
      await reachCovers(roleIds)
    }
    if (groupIds.length) {
      await requireExisting(tx, 'group', groupIds, true)
      await powerCovers({ positionIds, roleIds, groupIds })
      await reachCovers(await carried('user_group_roles', groupIds))
    }
  }
}
