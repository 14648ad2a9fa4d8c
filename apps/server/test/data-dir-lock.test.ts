import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { acquireDataDirLock, processStartTime } from '../src/db/data-dir-lock'

// The data-directory lock (DESIGN.md §11): a crash, even as PID 1 in a container, never blocks the
// next start; a live owner always does.
const lockModule = path.resolve(__dirname, '../src/db/data-dir-lock.ts')
const dirs: string[] = []
const children: ChildProcess[] = []
const freshDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'amg-lock-'))
  dirs.push(dir)
  return dir
}
const lockFile = (dir: string) => path.join(dir, 'server.lock')
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL')
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true })
})

/** A child process that runs until killed; resolves once it has printed its first line. */
function startChild(script: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  children.push(child)
  return new Promise((resolve, reject) => {
    let err = ''
    child.stderr!.on('data', (d) => (err += d))
    child.stdout!.once('data', () => resolve(child))
    child.once('exit', (code) => reject(new Error(`child exited ${code}: ${err}`)))
  })
}
const idleChild = () => startChild(`console.log('up'); setInterval(() => {}, 1000)`)
const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) =>
    child.exitCode !== null || child.signalCode ? resolve() : child.once('exit', () => resolve()),
  )

describe.skipIf(process.platform !== 'linux')('the data-directory lock', () => {
  it('reads a start time for a running process and none for a missing one', () => {
    expect(processStartTime(process.pid)).toMatch(/^\d+$/)
    expect(processStartTime(2 ** 30)).toBeNull()
  })

  it('is not blocked by a lock naming its own PID that it does not hold (a restart as PID 1)', () => {
    const dir = freshDir()
    fs.writeFileSync(lockFile(dir), JSON.stringify({ pid: process.pid, start: '1' }))
    acquireDataDirLock(dir)()
    fs.writeFileSync(lockFile(dir), String(process.pid)) // the older, bare-PID format
    const release = acquireDataDirLock(dir)
    expect(JSON.parse(fs.readFileSync(lockFile(dir), 'utf8'))).toMatchObject({
      pid: process.pid,
      start: processStartTime(process.pid),
    })
    release()
    expect(fs.existsSync(lockFile(dir))).toBe(false)
  })

  it('is not blocked by a reused PID: a running process with another start time', async () => {
    const other = await idleChild()
    const start = processStartTime(other.pid!)!
    const dir = freshDir()
    fs.writeFileSync(lockFile(dir), JSON.stringify({ pid: other.pid, start: String(Number(start) - 100) }))
    acquireDataDirLock(dir)()
  })

  it('is blocked by a live owner, and takes the lock over once that owner is killed', async () => {
    const dir = freshDir()
    const owner = await startChild(
      `const m = await import(${JSON.stringify(lockModule)}); m.acquireDataDirLock(${JSON.stringify(dir)}); console.log('locked'); setInterval(() => {}, 1000)`,
    )
    expect(() => acquireDataDirLock(dir)).toThrow(`正被另一个服务进程（PID ${owner.pid}）使用`)
    // The same owner written by hand, start time included, blocks just the same.
    const byHand = freshDir()
    fs.writeFileSync(
      lockFile(byHand),
      JSON.stringify({ pid: owner.pid, start: processStartTime(owner.pid!) }),
    )
    expect(() => acquireDataDirLock(byHand)).toThrow('正被另一个服务进程')
    fs.writeFileSync(lockFile(byHand), String(owner.pid)) // older format: a running PID is the owner
    expect(() => acquireDataDirLock(byHand)).toThrow('正被另一个服务进程')

    owner.kill('SIGKILL') // a crash: the lock stays behind
    await exited(owner)
    expect(fs.existsSync(lockFile(dir))).toBe(true)
    const release = acquireDataDirLock(dir)
    expect(JSON.parse(fs.readFileSync(lockFile(dir), 'utf8')).pid).toBe(process.pid)
    release()
  })

  it('refuses to open the same directory twice in one process, under any path', () => {
    const dir = freshDir()
    const release = acquireDataDirLock(dir)
    expect(() => acquireDataDirLock(dir)).toThrow('已被本进程打开')
    const link = path.join(freshDir(), 'alias')
    fs.symlinkSync(dir, link)
    expect(() => acquireDataDirLock(link)).toThrow('已被本进程打开')
    release()
    acquireDataDirLock(dir)()
  })

  it('leaves a lock that someone else took over in place when releasing', () => {
    const dir = freshDir()
    const release = acquireDataDirLock(dir)
    fs.writeFileSync(lockFile(dir), JSON.stringify({ pid: 1, start: '0', instance: 'someone-else' }))
    release()
    expect(fs.existsSync(lockFile(dir))).toBe(true)
  })
})
