import fs from 'node:fs'
import path from 'node:path'

/**
 * The embedded database may be opened by one process only: two would corrupt it.
 * A lock file holds the owner's pid; a lock left by a process that no longer runs is taken over.
 */
export function acquireDataDirLock(dataDir: string): () => void {
  const lockPath = path.join(dataDir, 'server.lock')
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockPath, String(process.pid), { flag: 'wx' })
      let released = false
      return () => {
        if (released) return
        released = true
        fs.rmSync(lockPath, { force: true })
      }
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
      const owner = Number(fs.readFileSync(lockPath, 'utf8').trim())
      if (owner && owner !== process.pid && isRunning(owner)) {
        throw new Error(
          `数据目录 ${dataDir} 正被另一个服务进程（PID ${owner}）使用。内嵌数据库只能由一个进程打开：请先停止该进程，或设置不同的 DATA_DIR。`,
        )
      }
      if (owner === process.pid) {
        throw new Error(`数据目录 ${dataDir} 已被本进程打开，不能重复打开。`)
      }
      fs.rmSync(lockPath, { force: true }) // stale lock from a process that died
    }
  }
  throw new Error(`无法锁定数据目录 ${dataDir}`)
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}
