import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { freePort } from './helpers/processes'
import { TEST_ADMIN_PASSWORD, TEST_SECRET_KEY } from './helpers/constants'

/**
 * `npm start` and `node scripts/start.mjs` stop when told to (a container's stop sends SIGTERM to the
 * process it started): the server closes its database and exits, the start script and npm exit with
 * it, the port closes, and no server is left running on its own.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..')

/** A process that is gone or has finished (a zombie waits only for its parent to read its status). */
function running(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z'
  } catch {
    return false
  }
}

/** Every process below `pid` (Linux /proc). */
function descendants(pid: number): number[] {
  const children = fs
    .readdirSync(`/proc/${pid}/task`)
    .flatMap((task) => {
      try {
        return fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim().split(/\s+/)
      } catch {
        return []
      }
    })
    .filter(Boolean)
    .map(Number)
  return children.flatMap((c) => [c, ...descendants(c)])
}

const portOpen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = net.connect(port, '127.0.0.1', () => (s.end(), resolve(true)))
    s.on('error', () => resolve(false))
  })

const started: { child: ChildProcess; pids: number[]; dataDir: string }[] = []
afterEach(() => {
  // whatever a failed test left behind: only the processes this test started
  for (const { child, pids, dataDir } of started.splice(0)) {
    for (const pid of [child.pid!, ...pids]) if (running(pid)) process.kill(pid, 'SIGKILL')
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
})

async function startAndStop(command: string, args: string[]) {
  const port = await freePort()
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'amg-start-'))
  let output = ''
  const child = spawn(command, args, {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      INITIAL_ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
      SECRET_KEY: TEST_SECRET_KEY,
      PASSWORD_HASH_COST: '14',
      LOG_LEVEL: 'info',
      SKIP_CONSOLE_BUILD: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const entry = { child, pids: [] as number[], dataDir }
  started.push(entry)
  child.stdout!.on('data', (b: Buffer) => (output += b.toString()))
  child.stderr!.on('data', (b: Buffer) => (output += b.toString()))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))

  const deadline = Date.now() + 150_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${command} exited: ${output}`)
    const up = await fetch(`http://127.0.0.1:${port}/api/health`).then(
      (r) => r.ok,
      () => false,
    )
    if (up) break
    if (Date.now() > deadline) throw new Error(`the server did not start: ${output}`)
    await new Promise((r) => setTimeout(r, 250))
  }
  entry.pids = descendants(child.pid!)
  // the start script and the server under it (and nothing else: the console build was skipped)
  expect(entry.pids.length).toBeGreaterThanOrEqual(1)

  const stoppedAt = Date.now()
  child.kill('SIGTERM')
  const inTime = await Promise.race([
    exited.then(() => true),
    new Promise<boolean>((r) => setTimeout(() => r(false), 10_000)),
  ])
  expect(inTime, `${command} did not exit within 10 s: ${output}`).toBe(true)
  expect(Date.now() - stoppedAt).toBeLessThan(10_000)
  expect(await portOpen(port)).toBe(false)
  expect(entry.pids.filter(running), 'processes left running').toEqual([])
  // the server shut down on the signal (it closed its database), not killed
  expect(output).toContain('shutting down')
  return { output }
}

describe('stopping the system (SIGTERM)', () => {
  it('node scripts/start.mjs: passes it to the server, and exits when the server has', async () => {
    await startAndStop(process.execPath, ['scripts/start.mjs'])
  }, 200_000)

  it('npm start (npm as a container runs it): the server stops too, none is left behind', async () => {
    await startAndStop('npm', ['start'])
  }, 200_000)
})
