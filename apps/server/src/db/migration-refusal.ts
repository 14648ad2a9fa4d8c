/** SQLSTATE of RAISE EXCEPTION: a migration that refuses to go on says why (names that clash, say). */
const RAISED = 'P0001'

/**
 * Runs the migrations. A migration's own refusal is the start's message, in its words: the driver
 * wraps it in the whole text of the failed statement, which tells an operator nothing.
 */
export async function migrateOrExplain(run: () => Promise<void>): Promise<void> {
  try {
    await run()
  } catch (err) {
    for (let e = err as { code?: unknown; message?: string; cause?: unknown } | undefined; e;) {
      if (e.code === RAISED && e.message) throw new Error(e.message, { cause: err })
      e = e.cause as typeof e
    }
    throw err
  }
}
