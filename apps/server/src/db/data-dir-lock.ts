import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { PRIVATE_FILE_MODE } from './private-files'

/**
 * The embedded database may be opened by one process only: two would corrupt it.
 *
 * `server.lock` names the owner by PID *and* the start time of that process (Linux: field 22 of
 * /proc/<pid>/stat), because a PID alone outlives its process: after `kill -9` in a container the
 * restarted server is PID 1 again, and on a busy host a dead owner's PID is handed to someone else.
 * A lock is stale, and taken over, when its PID does not run, runs with another start time, or is
 * this very process while this process does not hold the directory (an earlier life of the same
 * PID). Directories this process holds are kept in a registry, so opening one twice is refused.
 *
 * Node has no flock and native add-ons are out, so two processes that find the same stale lock at
 * the same instant could both take it over; the window is a few microseconds at start-up.
 * Where /proc is missing (macOS), the start time is unknown and a running PID other than ours counts
 * as the owner. The check works within one PID namespace: two containers sharing one DATA_DIR are
 * not detected — give each its own, or use PostgreSQL for several instances.
 */
const LOCK_FILE = 'server.lock'

interface LockOwner {
  pid: number
  /** start time of the process in clock ticks since boot; null where it cannot be read */
  start: string | null
  /** the writing process's own token, so a release never removes a lock someone else has taken */
  instance?: string
  /** for the operator reading the file: which machine or container wrote it */
  host?: string
}

/** Data directories this process holds (real paths). */
const held = new Set<string>()

export function acquireDataDirLock(dataDir: string): () => void {
  const key = realPath(dataDir)
  if (held.has(key)) throw new Error(`数据目录 ${dataDir} 已被本进程打开，不能重复打开。`)
  const lockPath = path.join(dataDir, LOCK_FILE)
  const me: LockOwner = {
    pid: process.pid,
    start: processStartTime(process.pid),
    instance: randomBytes(8).toString('hex'),
    host: os.hostname(),
  }
  const content = JSON.stringify(me)
  for (let attempt = 0; attempt < 3; attempt++) {
    if (createExclusive(lockPath, content)) {
      held.add(key)
      let released = false
      return () => {
        if (released) return
        released = true
        held.delete(key)
        // Only our own lock: if it was taken over meanwhile, the file is someone else's now.
        if (readLock(lockPath)?.raw === content) fs.rmSync(lockPath, { force: true })
      }
    }
    const found = readLock(lockPath)
    if (!found) continue // removed between our attempt and the read: try again
    if (isLive(found.owner)) {
      throw new Error(
        `数据目录 ${dataDir} 正被另一个服务进程（PID ${found.owner.pid}）使用。内嵌数据库只能由一个进程打开：请先停止该进程，或设置不同的 DATA_DIR。`,
      )
    }
    // Stale: remove it, unless it changed since we read it (another starter took it over first).
    if (readLock(lockPath)?.raw === found.raw) fs.rmSync(lockPath, { force: true })
  }
  throw new Error(`无法锁定数据目录 ${dataDir}`)
}

/** Is the process a lock names still the one that wrote it? */
function isLive(owner: LockOwner): boolean {
  // Our PID, but the directory is not in our registry: an earlier process that had our PID.
  if (owner.pid === process.pid) return false
  if (!isRunning(owner.pid)) return false
  const start = processStartTime(owner.pid)
  // A running PID with another start time is a reused PID. Unknown on either side: assume the owner.
  return owner.start === null || start === null || start === owner.start
}

/**
 * Writes the lock only if none exists, complete or not at all: the content goes to a private file
 * first and is hard-linked into place, so a reader never sees a half-written lock.
 */
function createExclusive(lockPath: string, content: string): boolean {
  const temp = `${lockPath}.${process.pid}.${randomBytes(4).toString('hex')}`
  fs.writeFileSync(temp, content, { flag: 'wx', mode: PRIVATE_FILE_MODE })
  try {
    fs.linkSync(temp, lockPath)
    return true
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    if (code === 'EEXIST') return false
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP') throw err
    // A file system without hard links: an exclusive create is the next best thing.
    try {
      fs.writeFileSync(lockPath, content, { flag: 'wx', mode: PRIVATE_FILE_MODE })
      return true
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false
      throw e
    }
  } finally {
    fs.rmSync(temp, { force: true })
  }
}

/** The lock's owner, or null when there is no lock. A bare PID is the format of older versions. */
function readLock(lockPath: string): { raw: string; owner: LockOwner } | null {
  let raw: string
  try {
    raw = fs.readFileSync(lockPath, 'utf8')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw err
  }
  return { raw, owner: parseOwner(raw) }
}

function parseOwner(raw: string): LockOwner {
  const text = raw.trim()
  if (/^\d+$/.test(text)) return { pid: Number(text), start: null }
  try {
    const parsed = JSON.parse(text) as Partial<LockOwner>
    if (Number.isInteger(parsed.pid) && (parsed.pid as number) > 0)
      return {
        ...parsed,
        pid: parsed.pid as number,
        start: typeof parsed.start === 'string' ? parsed.start : null,
      }
  } catch {
    // unreadable: treated as naming no process, below
  }
  return { pid: 0, start: null } // names no process: stale
}

/** Start time of a process in clock ticks since boot (Linux), or null where it cannot be read. */
export function processStartTime(pid: number): string | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
    // The command name (field 2) is in parentheses and may hold spaces: count from the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return fields[22 - 3] ?? null // field 3 (state) is fields[0]
  } catch {
    return null
  }
}

function isRunning(pid: number): boolean {
  if (pid <= 0) return false
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

function realPath(dir: string): string {
  try {
    return fs.realpathSync(dir)
  } catch {
    return path.resolve(dir)
  }
}
