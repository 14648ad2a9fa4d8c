import { execFile } from 'node:child_process'
import path from 'node:path'
import { promisify } from 'node:util'
import { expect, it } from 'vitest'

const run = promisify(execFile)
/** Two database starts and two heap snapshots in a process of its own: seconds alone, longer under load. */
const STARTS = 120_000
const helper = path.resolve(__dirname, 'helpers/tick-class.ts')
const db = path.resolve(__dirname, '../src/db')

/**
 * In a process of its own: the class id of a `nextTick` entry before the embedded database starts
 * and of one after, opened through `open` (`openDatabase`, which keeps the entries' class, or
 * `openPglite` alone, which does not). Printed as `before after`.
 */
async function classesAcrossStart(open: 'openDatabase' | 'openPglite'): Promise<[number, number]> {
  const module = open === 'openDatabase' ? 'connection.ts' : 'open-pglite.ts'
  const script = `
    import { tickClassId } from ${JSON.stringify(helper)}
    import { ${open} } from ${JSON.stringify(path.join(db, module))}
    function beforeStart() {}
    function afterStart() {}
    const database = await ${open}({ memory: true })
    const before = await tickClassId(beforeStart)
    await database.close()
    // the start's collections ran before the first id was read, so the comparison is across a second start
    const again = await ${open}({ memory: true })
    const after = await tickClassId(afterStart)
    await again.close()
    console.log(before, after)`
  const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    timeout: STARTS,
  })
  const [before, after] = stdout.trim().split(' ').map(Number)
  return [before, after]
}

// db/tick-shape.ts: while no nextTick entry is alive, the embedded database's start drops the class
// V8 built them on, and enough such drops leave every later nextTick several times slower. Read from
// heap snapshots, not from a timing: the class an entry is built on is the same after a start only
// when one entry is held.
it(
  'keeps the class of nextTick entries through the embedded database starting',
  { timeout: STARTS },
  async () => {
    const [before, after] = await classesAcrossStart('openDatabase')
    expect(before).toBeGreaterThan(0)
    expect(after).toBe(before)
  },
)

// the control: without the held entry the class is built anew, so the check above can fail (on a Node
// whose V8 keeps such classes by itself, this one fails and db/tick-shape.ts can go)
it(
  'without a held entry, a start drops the class nextTick entries were built on',
  { timeout: STARTS },
  async () => {
    const [before, after] = await classesAcrossStart('openPglite')
    expect(before).toBeGreaterThan(0)
    expect(after).not.toBe(before)
  },
)
